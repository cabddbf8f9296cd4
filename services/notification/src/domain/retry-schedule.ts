/**
 * When an e-mail that could not be sent is tried again. SMTP can be down for hours (a provider's
 * incident, a wrong setting fixed the next morning): the waits double from `firstMs` up to `maxMs`,
 * and there are as many attempts as it takes for the waits to add up to at least `spanMs` (24 h),
 * so an e-mail is given up only after a full day of trying.
 */
export interface RetrySchedule {
  firstMs: number;
  maxMs: number;
  spanMs: number;
}

export const EMAIL_RETRY_SPAN_MS = 24 * 3600 * 1000;

/** Up to a quarter more than the plain wait, so e-mails that failed together do not all retry at once. */
const JITTER = 0.25;

/** The plain wait after the n-th failed attempt (n ≥ 1), without jitter: the least it waits. */
export function retryWaitMs(schedule: RetrySchedule, failedAttempts: number): number {
  const n = Math.max(1, Math.floor(failedAttempts));
  // 2^(n-1) overflows to Infinity for large n; min() keeps it at the cap.
  return Math.min(schedule.maxMs, schedule.firstMs * 2 ** (n - 1));
}

/** The wait BullMQ applies after the n-th failed attempt: the plain wait plus up to 25 % jitter. */
export function retryDelayMs(schedule: RetrySchedule, failedAttempts: number, random = Math.random): number {
  const wait = retryWaitMs(schedule, failedAttempts);
  return Math.round(wait * (1 + JITTER * random()));
}

/** Attempts (the first one included) whose waits in between add up to at least `spanMs`. */
export function retryAttempts(schedule: RetrySchedule): number {
  let total = 0;
  let waits = 0;
  while (total < schedule.spanMs) {
    waits += 1;
    total += retryWaitMs(schedule, waits);
  }
  return waits + 1;
}

/** The least time from the first attempt to the last (the sum of the plain waits). */
export function retrySpanMs(schedule: RetrySchedule): number {
  const attempts = retryAttempts(schedule);
  let total = 0;
  for (let n = 1; n < attempts; n += 1) total += retryWaitMs(schedule, n);
  return total;
}
