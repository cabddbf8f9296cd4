import { createServiceApp, listenInternal, registerRateLimitStore, type ServiceApp } from '@decor/kit';
import cors from '@fastify/cors';
import { registerCardFrame } from './card-frame';
import { catalogueCacheFor, startCatalogueInvalidation } from './catalogue-cache';
import { corsOriginsOf, type GatewayConfig, trustProxyOf } from './config';
import { registerCsp } from './csp';
import { apiDocs } from './docs';
import { frontends, pageOrNotFound } from './frontends';
import { upstreamMetrics } from './metrics';
import { ORDER_STREAM_DOCS, registerOrderStreams } from './order-stream';
import { type PageRenderer, pageRenderer } from './page-render';
import { refuseDisguisedPaths, refuseUnsafePaths } from './path-guard';
import { apiProxy } from './proxy';
import type { ServiceName } from './routing-table';
import { registerSecurityHeaders } from './security-headers';
import { registerSessionRevocation } from './session-revocation';
import { registerTooLargeClose } from './too-large';
import { poolOf, type UpstreamPool } from './upstream-pool';

/**
 * Response headers the spec's clients read; CORS must expose them to the browser. The seed's
 * QuickBooks token headers (access_token, refresh_token, realm_id) are not among them: the tokens
 * stay in the accounting-sync service, and the gateway strips those headers from every answer.
 */
export const EXPOSED_HEADERS = [
  'token',
  'total_count',
  'can-be-modified',
  'expiredtoken',
  'qbo-session-expired',
  'x-request-id',
];
const QBO_TOKEN_HEADERS = ['access_token', 'refresh_token', 'realm_id'];

declare module 'fastify' {
  interface FastifyInstance {
    /** The operator's port (`/readyz`, `/metrics`, `/openapi.json`), e.g. http://127.0.0.1:8081. */
    internalUrl: string;
  }
}

/** Each service's instances (its URL, or several comma-separated: src/upstream-pool.ts). */
export function upstreamsFrom(config: GatewayConfig): Record<ServiceName, UpstreamPool> {
  return {
    user: poolOf(config.USER_SERVICE_URL),
    catalogue: poolOf(config.CATALOGUE_SERVICE_URL),
    cart: poolOf(config.CART_SERVICE_URL),
    order: poolOf(config.ORDER_SERVICE_URL),
    'accounting-sync': poolOf(config.ACCOUNTING_SYNC_SERVICE_URL),
    notification: poolOf(config.NOTIFICATION_SERVICE_URL),
  };
}

export async function buildGateway(
  config: GatewayConfig,
  opts: { logLevel?: string } = {},
): Promise<ServiceApp> {
  // The public pages' server renderer, set once the app exists (it reads the API through the app).
  let pages: PageRenderer | undefined;
  const app = await createServiceApp({
    name: 'gateway',
    logLevel: opts.logLevel ?? config.LOG_LEVEL,
    // Sessions come back on every request (a catalogue read from the cache costs less than a full check).
    jwt: { secret: config.JWT_SECRET, expiresIn: config.JWT_EXPIRES_IN, verifyCacheSize: 10_000 },
    bodyLimit: config.BODY_LIMIT_BYTES,
    notFound: pageOrNotFound(config.FRONTENDS_DIR, () => pages),
    // The public edge: X-Forwarded-* from clients are not trusted, unless a load balancer is named.
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    // Readiness, metrics and the OpenAPI document only on the internal port.
    operations: 'internal',
  });
  app.decorate('internalUrl', await listenInternal(app, { port: config.INTERNAL_PORT, host: config.HOST }));
  app.addHook('onRequest', refuseDisguisedPaths);
  app.addHook('onRequest', refuseUnsafePaths('/api'));
  registerSecurityHeaders(app);
  registerTooLargeClose(app);
  registerCsp(app, {
    imageBaseUrl: config.S3_PUBLIC_URL,
    ...(config.S3_UPLOAD_ENDPOINT ? { uploadEndpoint: config.S3_UPLOAD_ENDPOINT } : {}),
    ...(config.PAYMENTS_FRAME_URL ? { paymentsFrameUrl: config.PAYMENTS_FRAME_URL } : {}),
  });
  await app.register(cors, {
    // Only the listed origins, or the product's own (never any site): src/config.ts.
    origin: corsOriginsOf(config),
    exposedHeaders: EXPOSED_HEADERS,
    allowedHeaders: ['content-type', 'authorization', 'idempotency-key', 'x-request-id'],
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const header of QBO_TOKEN_HEADERS) reply.removeHeader(header);
    done(null, payload);
  });
  // Before every /api route: a suspended or deleted user's session is refused on every instance.
  const revocations = registerSessionRevocation(app, config);
  await registerRateLimitStore(app, { redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX });
  const upstreams = upstreamsFrom(config);
  const catalogueCache = catalogueCacheFor(config);
  app.decorate('catalogueCache', catalogueCache);
  // Before the proxy, so its hook sees every proxied answer. /metrics itself is the process's own,
  // at the root beside /healthz: nothing under /api reaches a service's /metrics.
  upstreamMetrics(app, { apiPrefix: '/api' });
  await app.register(apiProxy, { prefix: '/api', config, upstreams, catalogueCache });
  // Live order status (SSE); reads the order topic only once someone streams.
  registerOrderStreams(app, config);
  await app.register(apiDocs, {
    upstreams,
    staffOnly: config.NODE_ENV === 'production',
    ...(config.ORDER_STREAM_MAX_STREAMS > 0 ? { own: ORDER_STREAM_DOCS } : {}),
  });
  if (config.STRIPE_PUBLISHABLE_KEY)
    registerCardFrame(app, {
      publishableKey: config.STRIPE_PUBLISHABLE_KEY,
      allowedOrigins: corsOriginsOf(config),
    });
  await app.register(frontends, { dir: config.FRONTENDS_DIR });
  pages = pageRenderer(app, { dir: config.FRONTENDS_DIR, ttlMs: config.GATEWAY_CACHE_TTL_MS });
  if (pages && catalogueCache) catalogueCache.cache.onInvalidate(pages.invalidate);
  // Last: nothing after it can fail and leave its Kafka consumer running.
  if (catalogueCache) startCatalogueInvalidation(app, config, catalogueCache);
  void revocations.start();
  return app;
}
