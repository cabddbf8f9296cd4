import { Redis, type RedisOptions } from 'ioredis';

export interface CreateRedisOptions extends RedisOptions {
  /**
   * 'worker' (default): `maxRetriesPerRequest: null`, which BullMQ workers require (their blocking
   * commands must wait out a Redis restart instead of failing).
   * 'producer': for a connection that only enqueues (HTTP handlers, Kafka consumers): commands fail
   * after 2 retries, so a Redis outage surfaces as an error instead of a request hanging forever.
   */
  purpose?: 'worker' | 'producer';
}

export function createRedis(url: string, { purpose = 'worker', ...opts }: CreateRedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: purpose === 'worker' ? null : 2,
    ...opts,
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
