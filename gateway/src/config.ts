import { isIP } from 'node:net';
import { ConfigError, commonConfigSchema, loadConfig, REQUIRED_IN_PRODUCTION } from '@decor/kit';
import { Type } from '@sinclair/typebox';

const common = commonConfigSchema.properties;

export const gatewayConfigSchema = Type.Object({
  NODE_ENV: common.NODE_ENV,
  HOST: common.HOST,
  LOG_LEVEL: common.LOG_LEVEL,
  JWT_SECRET: common.JWT_SECRET,
  JWT_EXPIRES_IN: common.JWT_EXPIRES_IN,
  DRAIN_DELAY_MS: common.DRAIN_DELAY_MS,
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080 }),
  /**
   * The operator's port: `/readyz`, `/metrics` and `/openapi.json` (never on PORT), and `/healthz`.
   * Not to be published. 0: a free port, logged (tests); `npm start` uses 8081.
   */
  INTERNAL_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0, [REQUIRED_IN_PRODUCTION]: true }),
  /**
   * Whose X-Forwarded-For to believe for the client's ip (the rate limits' key): 'false' (default,
   * the gateway is the edge) or the load balancers' addresses/CIDRs, comma-separated. Not 'true':
   * any client could then pick its own ip (trustProxyProblems).
   */
  TRUST_PROXY: Type.String({ default: 'false' }),
  /** Rate-limit counters, shared by every gateway instance. */
  REDIS_URL: common.REDIS_URL,
  REDIS_PREFIX: common.REDIS_PREFIX,
  USER_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4101', [REQUIRED_IN_PRODUCTION]: true }),
  CATALOGUE_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4102', [REQUIRED_IN_PRODUCTION]: true }),
  CART_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4103', [REQUIRED_IN_PRODUCTION]: true }),
  ORDER_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4104', [REQUIRED_IN_PRODUCTION]: true }),
  ACCOUNTING_SYNC_SERVICE_URL: Type.String({
    default: 'http://127.0.0.1:4105',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  NOTIFICATION_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:4106', [REQUIRED_IN_PRODUCTION]: true }),
  /**
   * Comma-separated origins allowed by CORS. Unset (not in production): the product's own, the
   * gateway's address and the frontends' dev servers (corsOriginsOf). Never '*' (any site).
   */
  CORS_ORIGINS: Type.String({ default: '', [REQUIRED_IN_PRODUCTION]: true }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  /** Requests per minute and client ip to each rate-limited prefix (sign-in, reset, contact form). */
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 30, minimum: 1 }),
  UPSTREAM_TIMEOUT_MS: Type.Integer({ default: 14_000, minimum: 100 }),
  /**
   * How long a connection to a service stays open unused before the gateway closes it: well inside
   * the services' own keep-alive (Fastify's 72 s), so the gateway, not the service, ends an idle one.
   * Else a request can be written to a connection the service is closing that same moment, and a
   * read answers 503 with a single instance to go to (src/proxy.ts).
   */
  UPSTREAM_IDLE_MS: Type.Integer({ default: 30_000, minimum: 100, maximum: 60_000 }),
  /** Kafka, for the catalogue events that clear the gateway's cache of catalogue reads. */
  KAFKA_BROKERS: common.KAFKA_BROKERS,
  KAFKA_TOPIC_PREFIX: common.KAFKA_TOPIC_PREFIX,
  /**
   * Longest time the gateway serves a cached catalogue read (src/catalogue-cache.ts). Catalogue
   * events clear the cache at once; this bounds staleness if they stop arriving (Kafka out of
   * reach). 0 turns the cache off: those reads are proxied like every other call.
   */
  GATEWAY_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 30_000 }),
  /**
   * Live order status streams (src/order-stream.ts, `GET /api/orders/events`): at most this many
   * open on one instance (429 beyond); 0 turns the endpoint off (no order topic consumer either).
   */
  ORDER_STREAM_MAX_STREAMS: Type.Integer({ minimum: 0, maximum: 100_000, default: 2_000 }),
  /** At most this many open streams per user on one instance (tabs, devices); 429 beyond. */
  ORDER_STREAM_MAX_PER_USER: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  /** A comment line this often keeps idle streams open through proxies. */
  ORDER_STREAM_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),
  /** Recent order events kept for `Last-Event-ID` resume: at most this many… */
  ORDER_STREAM_BUFFER_EVENTS: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 10_000 }),
  /** …and none older than this. */
  ORDER_STREAM_BUFFER_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 300_000 }),
  /** Built frontends: the shell at /, remotes under /<folder>/. Missing folders are skipped. */
  FRONTENDS_DIR: Type.String({ default: '' }),
  /**
   * Where browsers load product images from, bucket included (the catalogue's S3_PUBLIC_URL): the
   * only image host the Content-Security-Policy of the pages allows besides the gateway (src/csp.ts).
   */
  S3_PUBLIC_URL: Type.String({
    pattern: '^https?://',
    'x-message': 'must start with http:// or https://',
    default: 'http://127.0.0.1:4569/decor-images',
  }),
  /** Where browsers PUT presigned uploads (the catalogue's S3_UPLOAD_ENDPOINT); default: S3_PUBLIC_URL's origin. */
  S3_UPLOAD_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', 'x-message': 'must start with http:// or https://' }),
  ),
  /**
   * The payment provider's card-entry page the accept screen frames (issue 30; the order service's
   * PAYMENTS_FRAME_URL): its origin is the one the Content-Security-Policy's frame-src allows.
   */
  PAYMENTS_FRAME_URL: Type.Optional(
    Type.String({
      pattern: '^(https?://|/)',
      'x-message': 'must start with http://, https:// or / (a page of the gateway)',
    }),
  ),
  /**
   * Stripe's publishable key (pk_test_… / pk_live_…): with it the gateway serves Stripe's Payment
   * Element at /payments/card (src/card-frame.ts), the card frame when Stripe itself takes deposits.
   */
  STRIPE_PUBLISHABLE_KEY: Type.Optional(
    Type.String({
      pattern: '^(pk_(test|live)_[A-Za-z0-9_]+)?$',
      'x-message': 'must be a Stripe publishable key (pk_…)',
    }),
  ),
});

export type GatewayConfig = ReturnType<typeof parseGatewayConfig>;

/** The config, or a ConfigError naming every bad variable. */
export function parseGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(gatewayConfigSchema, env);
  const problems = trustProxyProblems(config.TRUST_PROXY);
  const origins = listOf(config.CORS_ORIGINS);
  if (origins.includes('*') || (config.NODE_ENV === 'production' && origins.length === 0))
    problems.push(
      config.NODE_ENV === 'production'
        ? 'CORS_ORIGINS must list the allowed origins when NODE_ENV=production, not *'
        : "CORS_ORIGINS must list the allowed origins, not * (unset: the product's own)",
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** For main (and tests): the config, or the problems on stderr and exit code 1. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  try {
    return parseGatewayConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

/** TRUST_PROXY as Fastify's `trustProxy`: false, or the list of addresses and CIDRs. */
export function trustProxyOf(value: string): false | string[] {
  return value.trim() === 'false' ? false : listOf(value);
}

const listOf = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * TRUST_PROXY's problems: 'true' would believe the X-Forwarded-For of any client, who could then
 * pick a new ip per request (rate limits) or pose as another's; only named balancers are trusted.
 */
export function trustProxyProblems(value: string): string[] {
  if (value.trim() === 'false') return [];
  if (value.trim() === 'true')
    return [
      "TRUST_PROXY=true would believe any client's X-Forwarded-For: name the load balancers' addresses " +
        'or CIDRs, comma-separated (e.g. 10.0.0.0/8,192.168.1.5), or leave it unset',
    ];
  const entries = listOf(value);
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (entries.length > 0 && bad.length === 0) return [];
  return [
    `TRUST_PROXY must be false or addresses/CIDRs, comma-separated (e.g. 10.0.0.0/8,192.168.1.5)${
      bad.length > 0 ? `: not ${bad.map((b) => JSON.stringify(b)).join(', ')}` : ''
    }`,
  ];
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A /0 is every address: the same as 'true'.
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** The own origins: this gateway's address and the frontends' dev servers (3000 shell, 3001-3002 remotes). */
export function ownOrigins(port: number): string[] {
  return [port, 3000, 3001, 3002].flatMap((p) => [`http://127.0.0.1:${p}`, `http://localhost:${p}`]);
}

/** The origins CORS allows: CORS_ORIGINS, or (unset, outside production) the product's own. */
export function corsOriginsOf(config: { CORS_ORIGINS: string; PORT: number }): string[] {
  const listed = listOf(config.CORS_ORIGINS);
  return listed.length > 0 ? listed : ownOrigins(config.PORT);
}
