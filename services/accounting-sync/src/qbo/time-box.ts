import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
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

const callSignal = new AsyncLocalStorage<AbortSignal>();
const deadline = new AsyncLocalStorage<number>();

interface AxiosLike {
  interceptors: { request: { use(fn: (config: { signal?: unknown }) => unknown): number } };
}

/**
 * node-quickbooks builds each axios request itself and takes no timeout or signal, so the signal of
 * the call in progress (async context) is put on every request through its own axios instance (the
 * one it resolves, whatever else is installed).
 */
function installSignalInterceptor(): void {
  const from = path.dirname(require.resolve('node-quickbooks'));
  const axios = require(require.resolve('axios', { paths: [from] })) as AxiosLike;
  axios.interceptors.request.use((config) => {
    const signal = callSignal.getStore();
    if (signal && !config.signal) config.signal = signal;
    return config;
  });
}
installSignalInterceptor();

/** Runs `work` with every QuickBooks call in it ending by `until` (epoch ms). */
export function withQboDeadline<T>(until: number, work: () => Promise<T>): Promise<T> {
  return deadline.run(until, work);
}

export function timedOut(ms: number): QboFault {
  return new QboFault('server', 0, null, `QuickBooks did not answer within ${(ms / 1000).toFixed(1)} s`);
}

/**
 * Runs `send` (which starts node-quickbooks requests) with a signal that aborts them after
 * `timeoutMs`, or earlier at the deadline of the surrounding withQboDeadline. With no time left it
 * sends nothing. A timeout is a fault like no answer at all: the job retries it later.
 */
export function timeBoxed<T>(timeoutMs: number, send: () => Promise<T>): Promise<T> {
  const until = deadline.getStore();
  const budget = Math.min(timeoutMs, until === undefined ? timeoutMs : until - Date.now());
  if (budget <= 0) {
    return Promise.reject(
      new QboFault('server', 0, null, 'no time left for a QuickBooks call before the record lock ends'),
    );
  }
  const signal = AbortSignal.timeout(budget);
  return callSignal.run(signal, () =>
    send().catch((err) => {
      throw signal.aborted ? timedOut(budget) : err;
    }),
  );
}
