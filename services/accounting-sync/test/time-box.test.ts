/**
 * QuickBooks calls are time-boxed per call (issue 29, goal 5): each request gets its own AbortSignal,
 * and loading the client hooks nothing onto an HTTP client the rest of the process shares (it used
 * to install a global axios interceptor on import). What a hung QuickBooks does is in hang.test.ts.
 */
import path from 'node:path';
import '../src/qbo/client';
import { QboFault } from '../src/qbo/faults';
import { timeBoxed, withQboDeadline } from '../src/qbo/time-box';

interface AxiosLike {
  interceptors: { request: { handlers?: unknown[] }; response: { handlers?: unknown[] } };
}

it('loading the QuickBooks client installs no interceptor on the shared axios', () => {
  // The axios node-quickbooks (and the emulator's tools) resolve: the one an interceptor was put on.
  const from = path.dirname(require.resolve('node-quickbooks'));
  const axios = require(require.resolve('axios', { paths: [from] })) as AxiosLike;
  const installed = (h?: unknown[]) => (h ?? []).filter(Boolean).length;
  expect(installed(axios.interceptors.request.handlers)).toBe(0);
  expect(installed(axios.interceptors.response.handlers)).toBe(0);
});

it('gives each call its own signal, aborted at its own time box only', async () => {
  const signals: AbortSignal[] = [];
  const hung = timeBoxed(200, (signal) => {
    signals.push(signal);
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  });
  const quick = timeBoxed(5_000, async (signal) => {
    signals.push(signal);
    return 'answered';
  });
  await expect(quick).resolves.toBe('answered');
  await expect(hung).rejects.toThrow('QuickBooks did not answer within 0.2 s');
  expect(signals[0]).not.toBe(signals[1]);
  expect(signals.map((s) => s.aborted)).toEqual([true, false]);
});

it('cuts a call short at the record lock’s deadline, and starts none past it', async () => {
  const started: number[] = [];
  const call = () =>
    timeBoxed(5_000, (signal) => {
      started.push(Date.now());
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
  const t0 = Date.now();
  await expect(withQboDeadline(Date.now() + 150, call)).rejects.toBeInstanceOf(QboFault);
  expect(Date.now() - t0).toBeLessThan(2_000);
  await expect(withQboDeadline(Date.now() - 1, call)).rejects.toThrow(
    'no time left for a QuickBooks call before the record lock ends',
  );
  expect(started).toHaveLength(1);
});
