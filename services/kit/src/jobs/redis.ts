import { Redis, type RedisOptions } from 'ioredis';

export interface CreateRedisOptions extends RedisOptions {
  /**
   * 'worker' (default): `maxRetriesPerRequest: null`, which BullMQ workers require (their blocking
   * commands must wait out a Redis restart instead of failing).
   * 'producer': for a connection that only enqueues, counts and locks (HTTP handlers, Kafka
   * consumers): see PRODUCER_OPTIONS. BullMQ workers built with `createWorker` open their own
   * worker connection from it.
   */
  purpose?: 'worker' | 'producer';
}

/**
 * A producer command's answer comes within this, or the command fails (a request answers 503). It
 * leaves half of the 2 s bound free: at 1.5 s a loaded CI machine answered a request after 2 s.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * While Redis is out of reach a producer's command fails at once (no offline queue) or after
 * REDIS_COMMAND_TIMEOUT_MS (a server that accepts but does not answer), so a request answers 503
 * within 2 s instead of hanging. Nothing is re-sent after a reconnect: a request already told
 * "unavailable" must not have its job added behind its back.
 */
const PRODUCER_OPTIONS: RedisOptions = {
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  connectTimeout: REDIS_COMMAND_TIMEOUT_MS,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  // Back within a second of Redis returning (ioredis' default waits up to 2 s between attempts).
  retryStrategy: (times) => Math.min(times * 50, 1000),
};

/** What a worker connection undoes of PRODUCER_OPTIONS (its blocking reads wait out an outage). */
export const WORKER_OPTIONS: RedisOptions = {
  maxRetriesPerRequest: null,
  enableOfflineQueue: true,
  autoResendUnfulfilledCommands: true,
  connectTimeout: 10_000,
  commandTimeout: undefined,
};

export function createRedis(url: string, { purpose = 'worker', ...opts }: CreateRedisOptions = {}): Redis {
  return new Redis(url, { ...(purpose === 'worker' ? WORKER_OPTIONS : PRODUCER_OPTIONS), ...opts });
}

/** Resolves once `redis` is connected, or after `timeoutMs` (then commands fail until it is). */
export function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.once('ready', onReady);
  });
}

/** Redis part of /readyz: connected and answering PING within `timeoutMs`. Never throws. */
export async function pingRedis(redis: Redis, timeoutMs = 1000): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await Promise.race([
      redis.ping(),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), timeoutMs);
      }),
    ]);
    return reply === 'PONG';
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
