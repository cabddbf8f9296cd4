import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRedis } from '../jobs/redis';

/** The per-client answer; the gateway's limits and the sign-in's use it. */
export const TOO_MANY_REQUESTS = 'Too many requests, please try again in a minute';
/** A limit that cannot be checked (Redis out of reach) refuses rather than lets guesses through. */
export const LIMIT_UNCHECKED = 'This cannot be done right now, please try again shortly';

export interface RateLimitStoreOptions {
  redisUrl: string;
  /** Keys are `<prefix>:rate-limit:…`, beside the deployment's other keys (REDIS_PREFIX). */
  prefix: string;
}

/**
 * Registers @fastify/rate-limit with no route limited by default and its counters in Redis, so every
 * instance of a process (two gateways, two user services) counts against the same limit. The limits
 * themselves are `requestLimit`s. Its own connection fails a command within 2 s, so a Redis
 * outage answers 503 instead of holding the request.
 */
export async function registerRateLimitStore(app: FastifyInstance, opts: RateLimitStoreOptions) {
  const redis = createRedis(opts.redisUrl, {
    purpose: 'producer',
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    maxRetriesPerRequest: 1,
    // The first command is what connects it: it waits (at most the command timeout) for the connection.
    enableOfflineQueue: true,
    // Connects on the first limited request: an instance that never gets one holds no connection.
    lazyConnect: true,
  });
  // Logged by the failing requests; an unhandled 'error' event would end the process.
  redis.on('error', () => {});
  app.addHook('onClose', async () => {
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  });
  await app.register(rateLimit, { global: false, redis, nameSpace: `${opts.prefix}:rate-limit:` });
}

export interface RequestLimitOptions {
  /** What is counted, part of the key (e.g. `ip:/auth/user`, `account:sign-in`). */
  name: string;
  max: number;
  windowMs: number;
  /** Whom this request counts for (a client ip, an e-mail); undefined: not counted. */
  key(request: FastifyRequest): string | undefined;
  /** The 429's message, from the seconds until the window ends. */
  message(retryAfterSeconds: number): string;
}

export interface RequestLimit {
  /** Counts the request, then refuses it with 429 (`Retry-After`) once over the limit. A hook. */
  count(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Refuses with 429 when the limit is used up, without counting (for limits on failures). A hook. */
  check(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Counts one for the request (e.g. a failed sign-in); never throws. */
  add(request: FastifyRequest): Promise<void>;
}

/** The client's address as a limit key: IPv4-mapped IPv6 as IPv4, IPv6 by its /64 network. */
export const clientIp = (request: FastifyRequest): string => normalizeIP(request.ip);

/** A limit on `app`'s rate-limit store (`registerRateLimitStore` first, on this app or a parent). */
export function requestLimit(app: FastifyInstance, opts: RequestLimitOptions): RequestLimit {
  const limiter = app.createRateLimit({
    max: opts.max,
    timeWindow: opts.windowMs,
    keyGenerator: (request) => `${opts.name}|${opts.key(request) ?? ''}`,
  });
  const run = async (request: FastifyRequest, reply: FastifyReply, increment: boolean) => {
    if (opts.key(request) === undefined) return undefined;
    let state: Awaited<ReturnType<typeof limiter>>;
    try {
      state = await limiter(request, { increment });
    } catch (err) {
      request.log.error({ err, limit: opts.name }, 'rate limit could not be checked');
      return reply.code(503).header('retry-after', '5').send({ message: LIMIT_UNCHECKED });
    }
    if (state.isAllowed) return undefined;
    // A peek reports the count so far: the limit is used up once it reaches max.
    if (!(increment ? state.isExceeded : state.remaining === 0)) return undefined;
    const seconds = Math.max(1, state.ttlInSeconds);
    return reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({ message: opts.message(seconds) });
  };
  return {
    count: (request, reply) => run(request, reply, true),
    check: (request, reply) => run(request, reply, false),
    add: async (request) => {
      if (opts.key(request) === undefined) return;
      await limiter(request).catch((err) =>
        request.log.error({ err, limit: opts.name }, 'rate limit could not count'),
      );
    },
  };
}

/** "1 minute", "15 minutes": a Retry-After in words, rounded up to whole minutes. */
export function minutesFrom(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
