import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createRedis } from '../jobs/redis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate-limit store's connection and key prefix (`registerRateLimitStore`), for `attemptLimit`s. */
    rateLimitStore: { redis: Redis; nameSpace: string };
  }
}

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
  const nameSpace = `${opts.prefix}:rate-limit:`;
  app.decorate('rateLimitStore', { redis, nameSpace });
  await app.register(rateLimit, { global: false, redis, nameSpace });
}

export interface RequestLimitOptions {
  /** What is counted, part of the key (e.g. `ip:/auth/user`, `account:reset`). */
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
  return {
    count: async (request, reply) => {
      if (opts.key(request) === undefined) return undefined;
      let state: Awaited<ReturnType<typeof limiter>>;
      try {
        state = await limiter(request);
      } catch (err) {
        return unchecked(request, reply, opts.name, err);
      }
      if (state.isAllowed || !state.isExceeded) return undefined;
      return tooMany(reply, state.ttlInSeconds, opts.message);
    },
  };
}

function unchecked(request: FastifyRequest, reply: FastifyReply, name: string, err: unknown) {
  request.log.error({ err, limit: name }, 'rate limit could not be checked');
  return reply.code(503).header('retry-after', '5').send({ message: LIMIT_UNCHECKED });
}

function tooMany(reply: FastifyReply, ttlSeconds: number, message: (seconds: number) => string) {
  const seconds = Math.max(1, Math.ceil(ttlSeconds));
  return reply
    .code(429)
    .header('retry-after', String(seconds))
    .send({ message: message(seconds) });
}

export interface AttemptLimitOptions {
  /** What is limited, part of the key (e.g. `account:sign-in-failures`). */
  name: string;
  max: number;
  windowMs: number;
  /** The 429's message, from the seconds until the window ends. */
  message(retryAfterSeconds: number): string;
}

/**
 * A budget of attempts whose failures count (guessing a password): each attempt is TAKEN before it
 * is made and given back when it succeeds. A peek before and a count after would let any number of
 * parallel attempts through the peek; taking first lets at most `max` run per window.
 */
export interface AttemptLimit {
  /**
   * Takes one of `key`'s attempts, atomically: true when taken (make the attempt); false when refused,
   * the 429 with `Retry-After` (the window's rest), or 503 when Redis is out of reach, then sent.
   * (Not the reply itself: a reply is a thenable, an async function would answer its `then`.)
   */
  take(key: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Gives a taken attempt back (it did not fail); never throws. */
  giveBack(key: string, request: FastifyRequest): Promise<void>;
}

// Under the limit: one more, the window starting with the first. At it: refused, nothing counted,
// so refusals never stretch the window. Answers [taken 0|1, milliseconds left in the window].
const TAKE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
local taken = 0
if n < tonumber(ARGV[1]) then
  redis.call('INCR', KEYS[1])
  taken = 1
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {taken, ttl}`;
// A window that ended meanwhile (key gone) gets nothing back.
const GIVE_BACK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/** An attempt budget in `app`'s rate-limit store (`registerRateLimitStore` first, on this app or a parent). */
export function attemptLimit(app: FastifyInstance, opts: AttemptLimitOptions): AttemptLimit {
  const { redis, nameSpace } = app.rateLimitStore;
  const keyOf = (key: string) => `${nameSpace}${opts.name}|${key}`;
  return {
    take: async (key, request, reply) => {
      let answer: [number, number];
      try {
        answer = (await redis.eval(TAKE, 1, keyOf(key), opts.max, opts.windowMs)) as [number, number];
      } catch (err) {
        unchecked(request, reply, opts.name, err);
        return false;
      }
      const [taken, ttlMs] = answer;
      if (taken === 1) return true;
      tooMany(reply, ttlMs / 1000, opts.message);
      return false;
    },
    giveBack: async (key, request) => {
      await redis
        .eval(GIVE_BACK, 1, keyOf(key))
        .catch((err) => request.log.error({ err, limit: opts.name }, 'rate limit could not give back'));
    },
  };
}

/** "1 minute", "15 minutes": a Retry-After in words, rounded up to whole minutes. */
export function minutesFrom(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
