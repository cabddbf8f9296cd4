import { AsyncLocalStorage } from 'node:async_hooks';
import { QboFault } from './faults';

/**
 * Every QuickBooks call is time-boxed, and a job's calls all end before its record lock does: a
 * call still in flight when the lock lapses could land beside a second job's write of the same
 * record. The lock is released only after the call has settled, and a timed-out call is aborted
 * (its socket destroyed) before it settles, so no request of ours outlives the lock.
 */
export const RECORD_LOCK_MS = 60_000;
/** Kept free at the end of the lock for aborting, the outcome's Mongo write, and clock slack. */
export const LOCK_MARGIN_MS = 10_000;
/** The longest QBO_CALL_TIMEOUT_MS may be (the config refuses more). */
export const MAX_CALL_TIMEOUT_MS = RECORD_LOCK_MS - LOCK_MARGIN_MS;

/** The deadline (epoch ms) of the surrounding withQboDeadline, for the calls made inside it. */
const deadline = new AsyncLocalStorage<number>();

/** Runs `work` with every QuickBooks call in it ending by `until` (epoch ms). */
export function withQboDeadline<T>(until: number, work: () => Promise<T>): Promise<T> {
  return deadline.run(until, work);
}

export function timedOut(ms: number): QboFault {
  return new QboFault('server', 0, null, `QuickBooks did not answer within ${(ms / 1000).toFixed(1)} s`);
}

/**
 * Runs `send` with a signal of its own that aborts after `timeoutMs`, or earlier at the deadline of
 * the surrounding withQboDeadline; `send` hands it to the requests it starts (a node-quickbooks
 * client's `signal`, vendor/node-quickbooks), so an abort destroys their sockets and no other call
 * is touched. With no time left it sends nothing. A timeout is a fault like no answer at all: the job
 * retries it later.
 */
export function timeBoxed<T>(timeoutMs: number, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const until = deadline.getStore();
  const budget = Math.min(timeoutMs, until === undefined ? timeoutMs : until - Date.now());
  if (budget <= 0) {
    return Promise.reject(
      new QboFault('server', 0, null, 'no time left for a QuickBooks call before the record lock ends'),
    );
  }
  const signal = AbortSignal.timeout(budget);
  return send(signal).catch((err) => {
    throw signal.aborted ? timedOut(budget) : err;
  });
}
