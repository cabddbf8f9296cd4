import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/**
 * Runs `work` while holding the Redis lock `key` (SET NX PX; released only by its owner). With
 * `waitMs` it waits that long for the lock, else it gives up at once and answers undefined. `work`
 * is told when the lock lapses at the latest (measured from before the SET that took it).
 */
export async function withRedisLock<T>(
  redis: Redis,
  key: string,
  ttlMs: number,
  work: (lockedUntil: number) => Promise<T>,
  { waitMs = 0 }: { waitMs?: number } = {},
): Promise<T | undefined> {
  const owner = randomUUID();
  const deadline = Date.now() + waitMs;
  let asked = Date.now();
  while ((await redis.set(key, owner, 'PX', ttlMs, 'NX')) !== 'OK') {
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 50));
    asked = Date.now();
  }
  try {
    return await work(asked + ttlMs);
  } finally {
    await redis.eval(RELEASE, 1, key, owner);
  }
}
