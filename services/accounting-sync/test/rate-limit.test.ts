import { createRedis } from '@decor/kit';
import { RUN_ID, testEndpoints } from '@decor/kit/testing';
import type { Redis } from 'ioredis';
import { redisRateLimiter } from '../src/qbo/rate-limit';

/** Redis' own clock (ms), which the limiter's slots are counted in. */
async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Number(micros) / 1000;
}

describe('the shared QuickBooks rate limiter (real Redis)', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = createRedis(testEndpoints().redisUrl);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${RUN_ID}-rl*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('gives the callers of two processes one slot each, 60 s / limit apart', async () => {
    // 600 a minute: one slot every 100 ms, shared by both limiters.
    const a = redisRateLimiter(redis, `${RUN_ID}-rl1`, () => 600);
    const b = redisRateLimiter(redis, `${RUN_ID}-rl1`, () => 600);
    // Ten callers at once, taking turns between the two: the slots are handed out in the order Redis
    // runs the calls. (One after another, a loaded run let a slot pass between two calls: wait 0 twice.)
    const before = await redisNow(redis);
    const waits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).reserve('realm')));
    // How long Redis took over the ten calls: a loaded machine can pause it between two (once 28 ms).
    const spread = (await redisNow(redis)) - before;
    expect(waits[0]).toBe(0);
    // Call i got the slot i × 100 ms after the first, and waits for it less the time since the first call.
    for (let i = 1; i < 10; i++) {
      expect(waits[i]).toBeLessThanOrEqual(i * 100);
      expect(waits[i]).toBeGreaterThanOrEqual(i * 100 - Math.ceil(spread));
    }
    // Another company has its own slots.
    expect(await a.reserve('other-realm')).toBe(0);
  });

  it('lets a few unused slots be caught up, never more than the burst', async () => {
    const limiter = redisRateLimiter(
      redis,
      `${RUN_ID}-rl2`,
      () => 600,
      () => 3,
    );
    await limiter.take('realm');
    await new Promise((r) => setTimeout(r, 1000)); // ten slots went unused
    // Six callers at once (one after another, a slow call could let the next slot come meanwhile).
    const before = await redisNow(redis);
    const waits = await Promise.all(Array.from({ length: 6 }, () => limiter.reserve('realm')));
    const spread = Math.ceil((await redisNow(redis)) - before);
    // The 3 caught-up slots and the one due now: at once. Then one every 100 ms again.
    expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(waits[4]).toBeLessThanOrEqual(100);
    expect(waits[4]).toBeGreaterThanOrEqual(100 - spread);
    expect(waits[5]).toBeLessThanOrEqual(200);
    expect(waits[5]).toBeGreaterThanOrEqual(200 - spread);
  });

  it('holds everyone back after a 429 until its Retry-After has passed', async () => {
    const limiter = redisRateLimiter(redis, `${RUN_ID}-rl3`, () => 6000);
    await limiter.pushBack('realm', 500);
    expect(await limiter.reserve('realm')).toBeGreaterThan(400);
  });
});
