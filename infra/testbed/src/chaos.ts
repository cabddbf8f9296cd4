/**
 * `npm run chaos`: the fault suite of issue 16 (infra/testbed/CHAOS.md). Starts its own copy of the product as
 * `npm start` runs it, drives orders and QuickBooks sends, runs each fault in turn, checks the data and
 * prints the table; exit code 1 when any row or check fails.
 *   tsx infra/testbed/src/chaos.ts [--short] [--fault 'kill order' --fault redis …] [--seconds 60]
 *     [--rate 30] [--customers 8] [--baseline 20] [--recover 120] [--settle 240] [--list]
 *   tsx infra/testbed/src/chaos.ts --rolling   issue 32's rolling restart instead (chaos/rolling.ts)
 * Env: CHAOS_KEEP=1 keeps the data dir and logs of a passing run too (a failing one always keeps them);
 * CHAOS_LOG_LEVEL sets the services' LOG_LEVEL (default warn).
 */
import { parseArgs } from 'node:util';
import { REPO_ROOT, RUNNABLES } from '@decor/cli/runnables';
import { allFaults } from './chaos/faults';
import { ROLLING, runRollingRestart } from './chaos/rolling';
import { FULL, runChaos, SHORT } from './chaos/run';

const { values: args } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    fault: { type: 'string', multiple: true },
    seconds: { type: 'string' },
    rate: { type: 'string' },
    customers: { type: 'string' },
    baseline: { type: 'string' },
    recover: { type: 'string' },
    settle: { type: 'string' },
    list: { type: 'boolean', default: false },
    rolling: { type: 'boolean', default: false },
  },
});

const number = (raw: string | undefined, fallback: number, name: string) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
};

async function main(): Promise<void> {
  if (args.list) {
    // The processes as the supervisor plans them (a worker where the runnable has one).
    const processes = RUNNABLES.flatMap((r) => [
      { name: r.name, dir: r.dir, entry: 'main' as const, readyUrl: '', port: 0 },
      ...(r.worker
        ? [{ name: `${r.name}-worker`, dir: r.dir, entry: 'worker' as const, readyUrl: '', port: 0 }]
        : []),
    ]);
    for (const f of allFaults({ processes })) console.log(f.name);
    return;
  }
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  if (args.rolling) {
    const rolling = await runRollingRestart({
      ...ROLLING,
      ordersPerMinute: number(args.rate, ROLLING.ordersPerMinute, 'rate'),
      customers: number(args.customers, ROLLING.customers, 'customers'),
      baselineSeconds: number(args.baseline, ROLLING.baselineSeconds, 'baseline'),
      settleSeconds: number(args.settle, ROLLING.settleSeconds, 'settle'),
      log,
    });
    console.log(
      `\nRolling restart, ${rolling.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${rolling.minutes.toFixed(1)} min:\n`,
    );
    console.log(rolling.report);
    console.log(
      rolling.verdict.ok
        ? '\n✓ the rolling restart lost nothing'
        : `\n✗ the rolling restart FAILED:\n  ${rolling.verdict.failures.join('\n  ')}`,
    );
    process.exitCode = rolling.verdict.ok ? 0 : 1;
    return;
  }
  const base = args.short ? SHORT : FULL;
  const result = await runChaos({
    ...base,
    faults: args.fault,
    short: args.short,
    faultSeconds: number(args.seconds, base.faultSeconds, 'seconds'),
    ordersPerMinute: number(args.rate, base.ordersPerMinute, 'rate'),
    customers: number(args.customers, base.customers, 'customers'),
    baselineSeconds: number(args.baseline, base.baselineSeconds, 'baseline'),
    recoverSeconds: number(args.recover, base.recoverSeconds, 'recover'),
    settleSeconds: number(args.settle, base.settleSeconds, 'settle'),
    log,
  });
  console.log(
    `\nFault suite, ${result.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${result.minutes.toFixed(1)} min (${REPO_ROOT}):`,
  );
  console.log(
    `each fault ${result.options.faultSeconds} s, ${result.options.ordersPerMinute} orders/min from ${result.options.customers} customers\n`,
  );
  console.log(result.report);
  console.log(
    result.verdict.ok
      ? '\n✓ the fault suite passed'
      : `\n✗ the fault suite FAILED:\n  ${result.verdict.failures.join('\n  ')}`,
  );
  process.exitCode = result.verdict.ok ? 0 : 1;
}

main().catch((err: Error) => {
  console.error(`chaos: ${err.stack ?? err.message}`);
  process.exitCode = 1;
});
