import {
  EMAIL_RETRY_SPAN_MS,
  type RetrySchedule,
  retryAttempts,
  retryDelayMs,
  retrySpanMs,
  retryWaitMs,
} from '../src/domain/retry-schedule';
import { DEFAULT_EMAIL_RETRY } from '../src/jobs/email-queue';

const HOUR = 3600_000;

describe('the e-mail retry schedule', () => {
  it('by default doubles from 5 s up to an hour and keeps trying for at least 24 h', () => {
    expect(DEFAULT_EMAIL_RETRY).toEqual({ firstMs: 5000, maxMs: HOUR, spanMs: EMAIL_RETRY_SPAN_MS });
    expect([1, 2, 3, 4].map((n) => retryWaitMs(DEFAULT_EMAIL_RETRY, n))).toEqual([
      5000, 10_000, 20_000, 40_000,
    ]);
    expect(retryWaitMs(DEFAULT_EMAIL_RETRY, 11)).toBe(HOUR);
    expect(retryWaitMs(DEFAULT_EMAIL_RETRY, 1000)).toBe(HOUR); // no overflow past the cap
    expect(retrySpanMs(DEFAULT_EMAIL_RETRY)).toBeGreaterThanOrEqual(24 * HOUR);
    // Not much more than a day either: the last wait is at most the cap.
    expect(retrySpanMs(DEFAULT_EMAIL_RETRY)).toBeLessThan(25 * HOUR);
    expect(retryAttempts(DEFAULT_EMAIL_RETRY)).toBe(34);
  });

  it('spans 24 h whatever the first steps (a test shortens them, not the day)', () => {
    const quick: RetrySchedule = { firstMs: 500, maxMs: 4000, spanMs: EMAIL_RETRY_SPAN_MS };
    expect([1, 2, 3, 4, 5].map((n) => retryWaitMs(quick, n))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(retrySpanMs(quick)).toBeGreaterThanOrEqual(24 * HOUR);
    // The attempt before the last one is still short of the day: no attempt more than needed.
    expect(retrySpanMs(quick) - retryWaitMs(quick, retryAttempts(quick) - 1)).toBeLessThan(24 * HOUR);
  });

  it('jitters each wait up to a quarter above the plain wait, never below it', () => {
    expect(retryDelayMs(DEFAULT_EMAIL_RETRY, 3, () => 0)).toBe(20_000);
    expect(retryDelayMs(DEFAULT_EMAIL_RETRY, 3, () => 0.999)).toBe(24_995);
    expect(retryDelayMs(DEFAULT_EMAIL_RETRY, 40, () => 0.5)).toBe(HOUR * 1.125);
  });
});
