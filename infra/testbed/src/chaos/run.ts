/**
 * The fault suite (issue 16): `npm start`'s product under a steady load of orders and QuickBooks sends
 * while, one at a time, each fault runs for its duration; after each, the load goes on until every
 * process answers /readyz again (counted in that fault's row). Then the load stops, what is under way
 * drains, and the data is checked. The run's rows and checks decide the verdict.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startNpmStart } from '../npm-start';
import { SWEEP_AFTER_MS } from './acceptances';
import { expectations, MailCollector, notReady, runChecks, settle } from './checks';
import { allFaults, type Fault, pickFaults, SHORT_FAULTS } from './faults';
import { Load } from './load';
import { prepare, STAFF } from './prepare';
import {
  type FaultRow,
  faultRows,
  formatChecks,
  formatTable,
  problemLines,
  type RunCheck,
  type Verdict,
  verdict,
} from './table';

export interface ChaosOptions {
  /** Fault names (see faults.ts); default every fault, or SHORT_FAULTS with `short`. */
  faults?: string[];
  short?: boolean;
  /** How long each fault lasts (an outage) or the load runs after it (a kill). */
  faultSeconds: number;
  baselineSeconds: number;
  ordersPerMinute: number;
  customers: number;
  /** After a fault: how long every process may take to answer /readyz again. */
  recoverSeconds: number;
  settleSeconds: number;
  log: (line: string) => void;
}

export interface ChaosResult {
  startedAt: Date;
  minutes: number;
  options: Omit<ChaosOptions, 'log'>;
  rows: FaultRow[];
  checks: RunCheck[];
  verdict: Verdict;
  report: string;
}

export const FULL: Omit<ChaosOptions, 'log'> = {
  faultSeconds: 60,
  baselineSeconds: 20,
  ordersPerMinute: 30,
  customers: 8,
  recoverSeconds: 120,
  settleSeconds: 240,
};

export const SHORT: Omit<ChaosOptions, 'log'> = {
  short: true,
  faultSeconds: 10,
  baselineSeconds: 10,
  ordersPerMinute: 30,
  customers: 6,
  recoverSeconds: 60,
  settleSeconds: 120,
};

async function untilReady(stack: Parameters<typeof notReady>[0], timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const down = await notReady(stack);
    if (down.length === 0 || Date.now() > deadline) return down;
    await sleep(1_000);
  }
}

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const { log } = o;
  const startedAt = new Date();
  log('chaos: starting the product as `npm start` runs it (own data dir, ports and Redis) …');
  // Authorisations never recorded are cancelled after SWEEP_AFTER_MS here (2 minutes in production),
  // so the acceptances' crash test sees the sweeper's work within its row.
  const stack = await startNpmStart(log, { env: { ACCEPTANCE_SWEEP_AFTER_MS: String(SWEEP_AFTER_MS) } });
  const mail = new MailCollector(stack.mailApiUrl);
  let ok = false;
  let load: Load | undefined;
  try {
    const all = allFaults(stack);
    const faults: Fault[] = pickFaults(
      all,
      o.faults?.length ? o.faults : o.short ? SHORT_FAULTS : all.map((f) => f.name),
    );
    const prepared = await prepare(stack, o.customers, log);
    for (const fault of faults) await fault.prepare?.(stack, log);
    mail.start();
    load = new Load({
      gatewayUrl: stack.gatewayUrl,
      customers: prepared.customers,
      staff: STAFF,
      productId: prepared.productId,
      ordersPerMinute: o.ordersPerMinute,
      log,
    });
    load.start();
    log(
      `chaos: load running (${o.ordersPerMinute} orders/min, ${o.customers} customers); baseline ${o.baselineSeconds} s`,
    );
    await sleep(o.baselineSeconds * 1000);

    const problems: Record<string, string> = {};
    let aborted: string | undefined;
    for (const fault of faults) {
      if (aborted) {
        problems[fault.name] = `not run (${aborted})`;
        continue;
      }
      load.phase = fault.name;
      const t0 = Date.now();
      log(`chaos: ▶ ${fault.name} (${o.faultSeconds} s)`);
      let end: (() => Promise<void>) | undefined;
      try {
        end = await fault.begin(stack);
        await sleep(o.faultSeconds * 1000);
      } catch (err) {
        problems[fault.name] = `could not run: ${(err as Error).message}`;
      } finally {
        await end?.().catch((err: Error) => {
          problems[fault.name] = err.message;
        });
      }
      const seen = fault.summary?.();
      if (seen) log(`chaos: ${fault.name}: ${seen}`);
      const down = await untilReady(stack, o.recoverSeconds * 1000);
      if (down.length > 0) {
        problems[fault.name] =
          `${down.join(', ')} not answering /readyz ${o.recoverSeconds} s after the fault`;
        aborted = `${down.join(', ')} never came back after ${fault.name}`;
      }
      log(
        `chaos: ■ ${fault.name} over, ${down.length === 0 ? 'all ready' : `NOT ready: ${down.join(', ')}`} after ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
      await sleep(3_000); // the tail of the recovery still counts in this fault's row
    }

    log('chaos: stopping the load; orders under way and sends to QuickBooks drain …');
    await load.stop(60_000);
    log(
      `chaos: settling (up to ${o.settleSeconds} s): every order, cart, e-mail and QuickBooks document in place, lag 0 …`,
    );
    const snap = await settle(stack, load, mail, o.settleSeconds * 1000, log);
    const phases = ['baseline', ...faults.map((f) => f.name), 'drain'];
    const refusalsAllowed = (phase: string) => faults.find((f) => f.name === phase)?.refusalsAllowed ?? false;
    const expected = expectations(load, snap);
    const rows = faultRows(phases, load.answers, expected, refusalsAllowed, problems);
    const checks = runChecks(load, snap);
    const result = verdict(rows, checks);
    const missing = expected.filter((e) => e.found !== 1);
    const report = [
      formatTable(rows),
      '',
      formatChecks(checks),
      ...problemLines(
        load.answers,
        missing,
        load.refusedSubmits,
        'answers outside the bound (2xx/4xx/503 within 5 s)',
      ),
    ].join('\n');
    ok = result.ok;
    const { log: _log, ...options } = o;
    return {
      startedAt,
      minutes: (Date.now() - startedAt.getTime()) / 60_000,
      options,
      rows,
      checks,
      verdict: result,
      report,
    };
  } catch (err) {
    log(
      `chaos: failed: ${(err as Error).message}\n--- last lines of npm start ---\n${stack.tail(60).join('\n')}`,
    );
    throw err;
  } finally {
    load?.abort();
    mail.stop();
    log('chaos: stopping the product …');
    await stack.stop({ keepData: !ok || process.env.CHAOS_KEEP === '1' });
  }
}
