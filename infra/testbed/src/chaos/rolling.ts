/**
 * Issue 32's rolling restart: the product as `npm start` runs it with two instances of every service,
 * the notification worker and the gateway (a balancer in front of the gateways, as an ingress would
 * be), under the fault suite's steady orders and QuickBooks sends plus visitors browsing the
 * catalogue. Each instance in turn is restarted as a rolling update does it: SIGTERM, its drain
 * (DRAIN_DELAY_MS not ready but serving, then in-flight requests finish), its exit, the supervisor's
 * new process, its /readyz — then the next. Every request must get an answer that is not a 5xx and
 * not a dropped connection, within 5 s; afterwards every accepted order, its cart, e-mails and
 * QuickBooks document exactly once, no dead letter, no lag.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { findProc, instanceProc } from '@decor/cli/procs';
import { waiter } from '@decor/cli/public-api';
import { type NpmStartStack, startNpmStart } from '../npm-start';
import type { ProductProcess } from '../processes';
import { startBalancer } from './balancer';
import { expectations, MailCollector, runChecks, settle } from './checks';
import { Load } from './load';
import { prepare, STAFF } from './prepare';
import {
  type Answer,
  type FaultRow,
  faultRows,
  formatChecks,
  formatTable,
  problemLines,
  type RunCheck,
  type Verdict,
  verdict,
} from './table';

export interface RollingOptions {
  baselineSeconds: number;
  ordersPerMinute: number;
  customers: number;
  /** Visitors reading the catalogue and availability, each one request after another. */
  browsers: number;
  /** The drain every process gets (DRAIN_DELAY_MS): longer than the balancer's 500 ms probe. */
  drainDelayMs: number;
  /** After each instance is ready again, before the next is stopped. */
  pauseSeconds: number;
  settleSeconds: number;
  log: (line: string) => void;
}

export const ROLLING: Omit<RollingOptions, 'log'> = {
  baselineSeconds: 10,
  ordersPerMinute: 30,
  customers: 6,
  browsers: 2,
  drainDelayMs: 2_000,
  pauseSeconds: 2,
  settleSeconds: 180,
};

export interface Restart {
  name: string;
  /** From SIGTERM until the old process was gone. */
  drainMs: number;
  /** From then until the new one answered /readyz. */
  readyMs: number;
}

export interface RollingResult {
  startedAt: Date;
  minutes: number;
  rows: FaultRow[];
  restarts: Restart[];
  checks: RunCheck[];
  verdict: Verdict;
  report: string;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const until = waiter('rolling', 100);

const answers200 = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) })
    .then((r) => r.status === 200)
    .catch(() => false);

/** SIGTERM, gone, replaced, ready: one instance as a rolling update restarts it. */
async function restartOne(stack: NpmStartStack, p: ProductProcess): Promise<Restart> {
  const match = instanceProc(p.dir, p.entry, p.port);
  const old = findProc(stack.startPid, match);
  if (!old) throw new Error(`no running ${p.name} (port ${p.port}) below npm start`);
  const t0 = Date.now();
  process.kill(old.pid, 'SIGTERM');
  await until(`${p.name} exiting after SIGTERM`, 40_000, async () => (alive(old.pid) ? undefined : true));
  const gone = Date.now();
  await until(`${p.name} started again and ready`, 120_000, async () => {
    const now = findProc(stack.startPid, match);
    return now && now.pid !== old.pid && (await answers200(p.readyUrl)) ? true : undefined;
  });
  return { name: p.name, drainMs: gone - t0, readyMs: Date.now() - gone };
}

/** A visitor: the catalogue's lists, one product and its free dates, one request after another. */
async function browse(load: Load, productId: string, running: () => boolean): Promise<void> {
  const from = new Date(Date.now() + 100 * 86_400_000).toISOString().slice(0, 10);
  const reads = [
    '/categories',
    '/product?limit=20',
    `/product/${encodeURIComponent(productId)}`,
    `/availability?from=${from}&id=${encodeURIComponent(productId)}`,
  ];
  const labels = ['/categories', '/product?limit=20', '/product/:id', '/availability'];
  for (let i = 0; running(); i++) {
    await load.call('GET', reads[i % reads.length] as string, { label: labels[i % labels.length] });
    await sleep(150);
  }
}

/** Any 5xx, refused or unanswered request: what was asked, per phase (none is allowed here). */
function failedAnswers(answers: Answer[]): string[] {
  const groups = new Map<string, number>();
  for (const a of answers) {
    const bad = a.failure ?? ((a.status ?? 0) >= 500 ? String(a.status) : undefined);
    if (!bad) continue;
    const key = `${a.phase}: ${bad} ${a.what}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups].map(([key, n]) => `${n}× ${key}`);
}

export async function runRollingRestart(o: RollingOptions): Promise<RollingResult> {
  const { log } = o;
  const startedAt = new Date();
  log('rolling: starting the product with 2 instances of each process (npm start, DECOR_INSTANCES=2) …');
  const stack = await startNpmStart(log, {
    instances: 2,
    env: { DRAIN_DELAY_MS: String(o.drainDelayMs) },
  });
  const mail = new MailCollector(stack.mailApiUrl);
  const gateways = stack.processes.filter((p) => p.name.startsWith('gateway'));
  const balancer = await startBalancer(
    gateways.map((g, i) => ({ url: stack.gatewayUrls[i] as string, readyUrl: g.readyUrl })),
  );
  const front: NpmStartStack = { ...stack, gatewayUrl: balancer.url };
  let ok = false;
  let load: Load | undefined;
  let browsing = true;
  const browsers: Promise<void>[] = [];
  try {
    const prepared = await prepare(front, o.customers, log);
    mail.start();
    load = new Load({
      gatewayUrl: balancer.url,
      customers: prepared.customers,
      staff: STAFF,
      productId: prepared.productId,
      ordersPerMinute: o.ordersPerMinute,
      log,
    });
    load.start();
    for (let i = 0; i < o.browsers; i++) browsers.push(browse(load, prepared.productId, () => browsing));
    log(
      `rolling: load running (${o.ordersPerMinute} orders/min, ${o.browsers} visitors); baseline ${o.baselineSeconds} s`,
    );
    await sleep(o.baselineSeconds * 1000);

    // As a rolling update goes: one process at a time, each of its instances in turn, the gateways last.
    const order = [...stack.processes].sort(
      (a, b) =>
        Number(a.name.startsWith('gateway')) - Number(b.name.startsWith('gateway')) ||
        a.name.replace(/-2$/, '').localeCompare(b.name.replace(/-2$/, '')) ||
        a.name.length - b.name.length,
    );
    const restarts: Restart[] = [];
    const problems: Record<string, string> = {};
    for (const p of order) {
      const phase = `restart ${p.name}`;
      load.phase = phase;
      try {
        const r = await restartOne(stack, p);
        restarts.push(r);
        log(
          `rolling: ${p.name} drained and exited in ${(r.drainMs / 1000).toFixed(1)} s, ready again ${(r.readyMs / 1000).toFixed(1)} s later`,
        );
      } catch (err) {
        problems[phase] = (err as Error).message;
        log(`rolling: ${phase} failed: ${(err as Error).message}`);
        break;
      }
      await sleep(o.pauseSeconds * 1000);
    }

    log('rolling: stopping the load; orders under way and sends to QuickBooks drain …');
    browsing = false;
    await Promise.all(browsers);
    await load.stop(60_000);
    const snap = await settle(front, load, mail, o.settleSeconds * 1000, log);
    const phases = ['baseline', ...order.map((p) => `restart ${p.name}`), 'drain'];
    const expected = expectations(load, snap);
    const rows = faultRows(phases, load.answers, expected, () => false, problems);
    const failed = failedAnswers(load.answers);
    const checks: RunCheck[] = [
      {
        name: 'no request lost',
        ok: failed.length === 0,
        detail:
          failed.length === 0
            ? `${load.answers.length} requests, none answered 5xx, refused or unanswered (${balancer.refusedRetries()} sent to the other gateway after a refused connection)`
            : failed.slice(0, 10).join('; '),
      },
      ...runChecks(load, snap),
    ];
    const result = verdict(rows, checks);
    const missing = expected.filter((e) => e.found !== 1);
    const report = [
      formatTable(rows),
      '',
      formatChecks(checks),
      '',
      `restarts: ${restarts.map((r) => `${r.name} ${(r.drainMs / 1000).toFixed(1)}+${(r.readyMs / 1000).toFixed(1)} s`).join(', ')}`,
      ...problemLines(load.answers, missing, load.refusedSubmits),
    ].join('\n');
    ok = result.ok;
    return {
      startedAt,
      minutes: (Date.now() - startedAt.getTime()) / 60_000,
      rows,
      restarts,
      checks,
      verdict: result,
      report,
    };
  } catch (err) {
    log(
      `rolling: failed: ${(err as Error).message}\n--- last lines of npm start ---\n${stack.tail(60).join('\n')}`,
    );
    throw err;
  } finally {
    browsing = false;
    load?.abort();
    mail.stop();
    await balancer.stop();
    log('rolling: stopping the product …');
    await stack.stop({ keepData: !ok || process.env.CHAOS_KEEP === '1' });
  }
}
