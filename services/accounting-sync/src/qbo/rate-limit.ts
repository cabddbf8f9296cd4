import type { Redis } from 'ioredis';

/**
 * One limiter for every process that calls QuickBooks for a company (Intuit counts per company:
 * 500 requests a minute). Each call reserves the next free slot in Redis — slots are spaced
 * 60 s / limit apart — and waits until its slot comes, so all workers together stay under the
 * limit, and none polls. A few slots nobody used may be used late (`burst`), so a moment of slow
 * job bookkeeping does not waste them; the limit's headroom (QBO_RATE_LIMIT_SHARE) covers them.
 * After a 429, `pushBack` moves the next free slot past QuickBooks' Retry-After for everyone.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nextSlot = tonumber(redis.call('GET', KEYS[1]) or '0')
local earliest = now - tonumber(ARGV[2])
if nextSlot < earliest then nextSlot = earliest end
redis.call('SET', KEYS[1], nextSlot + tonumber(ARGV[1]), 'PX', 600000)
return math.max(0, nextSlot - now)`;

const PUSH_BACK = `
local t = redis.call('TIME')
local until_ = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[1])
local nextSlot = tonumber(redis.call('GET', KEYS[1]) or '0')
if nextSlot < until_ then redis.call('SET', KEYS[1], until_, 'PX', 600000) end
return 1`;

export interface RateLimiter {
  /** Reserves the next slot: how many ms until it comes. */
  reserve(realmId: string): Promise<number>;
  /** Resolves when this caller may send its request. */
  take(realmId: string): Promise<void>;
  /** Nobody sends to this company for `ms` (QuickBooks answered 429). */
  pushBack(realmId: string, ms: number): Promise<void>;
}

/**
 * `perMinute` is what the limiter aims at; `burst` the unused slots it may catch up on (keep
 * `perMinute + burst` under QuickBooks' own limit).
 */
export function redisRateLimiter(
  redis: Redis,
  prefix: string,
  perMinute: () => number,
  burst: () => number = () => 0,
): RateLimiter {
  const key = (realmId: string) => `${prefix}:qbo-rate:${realmId}`;
  return {
    async reserve(realmId) {
      const intervalMicros = Math.ceil(60_000_000 / perMinute());
      const waitMicros = Number(
        await redis.eval(RESERVE, 1, key(realmId), intervalMicros, Math.floor(burst()) * intervalMicros),
      );
      return Math.ceil(waitMicros / 1000);
    },
    async take(realmId) {
      const waitMs = await this.reserve(realmId);
      if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    },
    async pushBack(realmId, ms) {
      await redis.eval(PUSH_BACK, 1, key(realmId), Math.ceil(ms * 1000));
    },
  };
}
