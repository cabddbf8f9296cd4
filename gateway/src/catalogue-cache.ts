import { TruckingFeeChanged, viewerClass } from '@decor/contracts';
import {
  type BroadcastInvalidation,
  type CachedAnswer,
  createKafka,
  currentUser,
  type KitLogger,
  ResponseCache,
  SESSIONS_WAIT_LEFT_HEADER,
  startBroadcastInvalidation,
  topicFor,
} from '@decor/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config';
import { upstreamPath } from './path-guard';
import { mayRetryElsewhere, type UpstreamPool } from './upstream-pool';

/**
 * The gateway answers the catalogue's public reads from a cache of its own: proxying costs far more
 * than the catalogue's answer (which comes from the catalogue's cache), and these are most of the
 * storefront's traffic. The cache is the kit's ResponseCache (services/kit/src/cache: why it stays
 * correct), cleared by the catalogue's events as the catalogue's own cache is:
 *
 * - Every gateway instance reads the catalogue topic in a consumer group of its own and clears its
 *   whole cache on any event but TruckingFeeChanged (the fee is not among these reads).
 * - A miss asks the catalogue with `Cache-Control: no-cache`, so the catalogue reads its database
 *   rather than its own cache: this gateway may have heard an event before that catalogue instance
 *   has, and an old answer from there would otherwise stay here for the TTL. An event is published
 *   only after its write is committed (outbox), so a read made after the clear sees the change.
 * - Reads that started before a clear are not stored (the cache's generation), entries expire after
 *   GATEWAY_CACHE_TTL_MS, and if Kafka is out of reach the gateway still serves, the TTL alone
 *   bounding staleness (logged; it keeps trying to read the topic).
 *
 * What an answer depends on decides its key (see services/catalogue/src/routes/products.ts and
 * categories.ts): the product list and a product differ by viewer class (anonymous: no price or
 * stock; signed in: price and stock; staff: also qboId and syncToken), so their key is the viewer
 * class from the session token, which the gateway verifies here exactly as the catalogue would
 * (an invalid or expired token gets the same 401, never a cached answer). Categories and a
 * product's images are the same for everyone and the catalogue ignores the token there, so the
 * gateway does too. The rest of the key is the full URL. Only 200 answers are kept.
 */
export interface CachedRead {
  /** Path under /api, without the query. */
  path: RegExp;
  byViewer: boolean;
}

export const CACHED_READS: readonly CachedRead[] = [
  { path: /^\/categories$/, byViewer: false },
  { path: /^\/product$/, byViewer: true },
  { path: /^\/product\/[^/]+$/, byViewer: true },
  { path: /^\/product\/[^/]+\/image$/, byViewer: false },
];

/** Catalogue events that change none of these answers. */
const NOT_CACHED = new Set<string>([TruckingFeeChanged.type]);

/** The catalogue's headers a client reads on these answers; the gateway adds its own (CORS, helmet, request id). */
const KEPT_HEADERS = [
  'content-type',
  'total_count',
  'cache-control',
  'etag',
  'last-modified',
  'expires',
  'vary',
  'expiredtoken',
  'retry-after',
];

export interface UpstreamAnswer extends CachedAnswer {
  /** The body as bytes, encoded once: a hit is sent as is, with no encoding per request. */
  payload: Buffer;
  status: number;
  /** The request whose session token the catalogue saw. */
  requestId: string;
}

export interface CatalogueCache {
  cache: ResponseCache<UpstreamAnswer>;
  /** Set once the gateway is built (it starts reading the topic last). */
  invalidation?: BroadcastInvalidation;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The cache of catalogue reads; undefined when GATEWAY_CACHE_TTL_MS is 0. */
    catalogueCache: CatalogueCache | undefined;
  }
}

export function catalogueCacheFor(config: GatewayConfig): CatalogueCache | undefined {
  if (config.GATEWAY_CACHE_TTL_MS === 0) return undefined;
  return { cache: new ResponseCache<UpstreamAnswer>(config.GATEWAY_CACHE_TTL_MS) };
}

/** Starts clearing the cache on catalogue events; stopped when the app closes. */
export function startCatalogueInvalidation(
  app: FastifyInstance,
  config: GatewayConfig,
  catalogueCache: CatalogueCache,
): void {
  const logger = app.log as KitLogger;
  const kafka = createKafka({
    clientId: 'gateway',
    brokers: [...config.KAFKA_BROKERS],
    logger,
    // Few retries per attempt: the invalidation tries again on its own, and shutdown waits for an attempt.
    config: { connectionTimeout: 3_000, retry: { retries: 2, initialRetryTime: 300 } },
  });
  const topic = topicFor(config.KAFKA_TOPIC_PREFIX, 'catalogue');
  const invalidation = startBroadcastInvalidation({
    name: 'gateway',
    kafka,
    topic,
    logger,
    ignore: (type) => NOT_CACHED.has(type),
    onInvalidate: () => catalogueCache.cache.invalidate(),
  });
  catalogueCache.invalidation = invalidation;
  app.addHook('onClose', () => invalidation.stop());
  app.log.info(
    { topic, ttlMs: config.GATEWAY_CACHE_TTL_MS },
    'caching catalogue reads, cleared by catalogue events',
  );
}

export interface CachedReadsOptions {
  catalogueCache: CatalogueCache;
  /** The catalogue's instances: a read one could not take is asked of the next. */
  upstreams: UpstreamPool;
  /** The routing-table entry's prefix ('/product'): the catalogue's path is built from it and the route's parameters. */
  prefix: string;
  timeoutMs: number;
  /** Answers a failed upstream call as the proxy does. */
  failed(reply: FastifyReply, error: Error & { code?: string }): void;
}

/**
 * preHandler of the catalogue's proxied routes: GET and HEAD of a cached read are answered here;
 * everything else goes on to the proxy.
 */
export function cachedReads(app: FastifyInstance, opts: CachedReadsOptions) {
  const { cache } = opts.catalogueCache;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const path = upstreamPath(opts.prefix, request);
    const read = CACHED_READS.find((r) => r.path.test(path));
    if (!read) return undefined;
    // Throws the 401 (with `expiredtoken` when expired) the catalogue would answer.
    if (read.byViewer) await app.optionalAuth(request, reply);
    const viewer = read.byViewer ? viewerClass(currentUser(request)) : 'everyone';
    const ask = () => askCatalogue(request, read, path, opts);
    let answer: UpstreamAnswer;
    try {
      answer = await cache.get(`${viewer} ${request.url}`, ask, { store: (a) => a.status === 200 });
      // Concurrent misses share one call, made with one caller's token. Should the catalogue have
      // refused that token (it expired in between), the others still get an answer of their own.
      if (answer.status === 401 && answer.requestId !== request.id) answer = await ask();
    } catch (err) {
      opts.failed(reply, err as Error);
      return reply;
    }
    return reply.code(answer.status).headers(answer.headers).send(answer.payload);
  };
}

async function askCatalogue(
  request: FastifyRequest,
  read: CachedRead,
  path: string,
  opts: CachedReadsOptions,
): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'cache-control': 'no-cache',
    'x-request-id': request.id,
  };
  if (read.byViewer && request.headers.authorization) {
    headers.authorization = request.headers.authorization;
    headers[SESSIONS_WAIT_LEFT_HEADER] = String(request.sessionsWaitLeftMs);
  }
  // GET for HEAD too: the answer is stored for both.
  const query = request.url.indexOf('?');
  const ask = (upstream: string) =>
    fetch(`${upstream}${path}${query < 0 ? '' : request.url.slice(query)}`, {
      headers,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  let upstream = opts.upstreams.next();
  let res: Response | undefined;
  for (let tries = 1; !res; tries++) {
    try {
      res = await ask(upstream);
    } catch (err) {
      if (tries >= opts.upstreams.size || !mayRetryElsewhere('GET', {}, err)) throw err;
      upstream = opts.upstreams.after(upstream);
    }
  }
  const body = await res.text();
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return { status: res.status, body, payload: Buffer.from(body), headers: kept, requestId: request.id };
}
