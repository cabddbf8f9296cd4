import {
  loadConfigOrExit,
  PUBLISHED_DEFAULT,
  qboConnectConfigSchema,
  REQUIRED_IN_PRODUCTION,
  serviceConfigSchema,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import { MAX_CALL_TIMEOUT_MS } from './qbo/time-box';

/**
 * A fixed, published key: tests only (DECOR_ALLOW_DEV_SECRETS=1). `npm start` passes one made per
 * installation (infra/.data/qbo-token-key); production must bring its own (QBO_TOKEN_KEY).
 */
const DEV_TOKEN_KEY = 'ZGVjb3ItbG9jYWwtcWJvLXRva2VuLWtleS0zMmJ5dGU=';

export const accountingSyncConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4105 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'accounting' }),
  ...qboConnectConfigSchema,
  QBO_CLIENT_SECRET: Type.String({
    minLength: 1,
    default: 'decor-local-secret',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  /** Intuit: https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer */
  QBO_TOKEN_URL: Type.String({
    pattern: '^https?://',
    default: 'http://127.0.0.1:4580/oauth2/v1/tokens/bearer',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  /** Intuit: https://developer.api.intuit.com/v2/oauth2/tokens/revoke */
  QBO_REVOKE_URL: Type.String({
    pattern: '^https?://',
    default: 'http://127.0.0.1:4580/v2/oauth2/tokens/revoke',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  /** Intuit sandbox: https://sandbox-quickbooks.api.intuit.com/v3/company/ (production without 'sandbox-'). */
  QBO_API_BASE_URL: Type.String({
    pattern: '^https?://.*/$',
    default: 'http://127.0.0.1:4580/v3/company/',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  /** 32 bytes, base64: encrypts the QuickBooks tokens at rest (AES-256-GCM). */
  QBO_TOKEN_KEY: Type.String({
    pattern: '^[A-Za-z0-9+/]{43}=$',
    'x-message': 'must be 32 random bytes in base64 (openssl rand -base64 32)',
    default: DEV_TOKEN_KEY,
    [REQUIRED_IN_PRODUCTION]: true,
    [PUBLISHED_DEFAULT]: true,
  }),
  /** Intuit allows 500 requests per minute per company; every process shares one limiter in Redis. */
  QBO_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 500 }),
  /** The share of that limit the limiter aims at, so clock skew never tips us over it. */
  QBO_RATE_LIMIT_SHARE: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.95 }),
  /**
   * How long one QuickBooks call may take before it is aborted and retried later; at most the
   * record lock's lifetime less its margin (time-box.ts), so no call outlives the lock.
   */
  QBO_CALL_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: MAX_CALL_TIMEOUT_MS,
    'x-message': `must be from 100 to ${MAX_CALL_TIMEOUT_MS} ms (below the record lock's lifetime)`,
    default: 20_000,
  }),
  /** Jobs this process runs at once (Intuit refuses more than 10 concurrent calls per company). */
  QBO_WORKER_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 10, default: 6 }),
  /** QuickBooks items for the estimate's extra lines (created when missing). */
  QBO_TRUCKING_ITEM: Type.String({ minLength: 1, default: 'Trucking' }),
  QBO_LABOR_ITEM: Type.String({ minLength: 1, default: 'Labor' }),
});

export type AccountingSyncConfig = ReturnType<typeof loadAccountingSyncConfig>;

export function loadAccountingSyncConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(accountingSyncConfigSchema, env);
}
