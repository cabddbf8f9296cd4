import type { Redis } from 'ioredis';

/**
 * One limiter for every process that calls QuickBooks for a company (Intuit counts per company:
 * 500 requests a minute). Each call reserves the next free slot in Redis — slots are spaced
 * 60 s / limit apart — and waits until its slot comes, so all workers together stay under the
 * limit without bursts, and none polls. After a 429, `pushBack` moves the next free slot past
 * QuickBooks' Retry-After for everyone.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nextSlot = tonumber(redis.call('GET', KEYS[1]) or '0')
if nextSlot < now then nextSlot = now end
redis.call('SET', KEYS[1], nextSlot + tonumber(ARGV[1]), 'PX', 600000)
return nextSlot - now`;

const PUSH_BACK = `
local t = redis.call('TIME')
local until_ = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[1])
local nextSlot = tonumber(redis.call('GET', KEYS[1]) or '0')
if nextSlot < until_ then redis.call('SET', KEYS[1], until_, 'PX', 600000) end
return 1`;

export interface RateLimiter {
  /** Resolves when this caller may send its request. */
  take(realmId: string): Promise<void>;
  /** Nobody sends to this company for `ms` (QuickBooks answered 429). */
  pushBack(realmId: string, ms: number): Promise<void>;
}

export function redisRateLimiter(redis: Redis, prefix: string, perMinute: () => number): RateLimiter {
  const key = (realmId: string) => `${prefix}:qbo-rate:${realmId}`;
  return {
    async take(realmId) {
      const intervalMicros = Math.ceil(60_000_000 / perMinute());
      const waitMicros = Number(await redis.eval(RESERVE, 1, key(realmId), intervalMicros));
      if (waitMicros > 0) await new Promise((r) => setTimeout(r, Math.ceil(waitMicros / 1000)));
    },
    async pushBack(realmId, ms) {
      await redis.eval(PUSH_BACK, 1, key(realmId), Math.ceil(ms * 1000));
    },
  };
}
