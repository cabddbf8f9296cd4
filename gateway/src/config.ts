import { commonConfigSchema, loadConfigOrExit, REQUIRED_IN_PRODUCTION } from '@decor/kit';
import { Type } from '@sinclair/typebox';

const common = commonConfigSchema.properties;

export const gatewayConfigSchema = Type.Object({
  NODE_ENV: common.NODE_ENV,
  HOST: common.HOST,
  LOG_LEVEL: common.LOG_LEVEL,
  JWT_SECRET: common.JWT_SECRET,
  JWT_EXPIRES_IN: common.JWT_EXPIRES_IN,
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080 }),
  USER_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4101', [REQUIRED_IN_PRODUCTION]: true }),
  CATALOGUE_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4102', [REQUIRED_IN_PRODUCTION]: true }),
  CART_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4103', [REQUIRED_IN_PRODUCTION]: true }),
  ORDER_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4104', [REQUIRED_IN_PRODUCTION]: true }),
  ACCOUNTING_SYNC_SERVICE_URL: Type.String({
    default: 'http://127.0.0.1:4105',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  NOTIFICATION_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4106', [REQUIRED_IN_PRODUCTION]: true }),
  /** Comma-separated origins allowed by CORS; '*' reflects any origin (local runs). */
  CORS_ORIGINS: Type.String({ default: '*' }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 30, minimum: 1 }),
  UPSTREAM_TIMEOUT_MS: Type.Integer({ default: 14_000, minimum: 100 }),
  /** Built frontends: the shell at /, remotes under /<folder>/. Missing folders are skipped. */
  FRONTENDS_DIR: Type.String({ default: '' }),
});

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(gatewayConfigSchema, env);
}
