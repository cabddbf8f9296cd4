/**
 * `npm run bench`: gateway overhead, catalogue reads, event-pipeline latency, checkouts, the orders list and live order status, the
 * back office's users and companies lists, the
 * frontends' budgets and the QuickBooks sync under its rate limit on this machine. Prints figures and records them in infra/bench/bench-results.md;
 * nothing passes or fails on a number, but a part whose checked answers are wrong fails (answers.ts: its
 * row says FAILED, the run exits 1). Each row carries the machine's calibration (calibration.ts), which
 * the regression guard compares by (regressions.ts).
 *   tsx infra/bench/src/bench.ts [--seconds 10] [--warmup-seconds 10] [--connections 50]
 *     [--events 1000,3000] [--warmup-events 300] [--rate 50,500] [--customers 50] [--visits 5]
 *     [--qbo-limit 1200] [--only gateway|pipeline|catalogue|checkout|frontend|qbo|orders|users|import|availability|acceptance|tracing]
 *     [--log-level warn] [--out infra/bench/bench-results.md] [--no-write] [--help]
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@decor/cli';
import {
  type AcceptanceFigures,
  acceptanceRow,
  acceptanceRows,
  formatAcceptance,
  measureAcceptance,
  writeAcceptanceRows,
} from './acceptance';
import {
  acceptanceProblems,
  availabilityProblems,
  checkoutProblems,
  importProblems,
  ordersProblems,
  usersProblems,
} from './answers';
import {
  type AvailabilityFigures,
  availabilityRow,
  availabilityRows,
  formatAvailability,
  measureAvailability,
  writeAvailabilityRows,
} from './availability';
import { measureCalibration } from './calibration';
import { measureCatalogueReads } from './catalogue-reads';
import { measureCheckouts } from './checkouts';
import { discardPipelineJobs, measureEventPipeline } from './event-pipeline';
import {
  ACCEPTANCE_FIGURES,
  AVAILABILITY_FIGURES,
  figureGuard,
  IMPORT_FIGURES,
  KNEE_FIGURES,
  ORDERS_FIGURES,
  QBO_FIGURES,
  RUNS_FIGURES,
  runKind,
  USERS_FIGURES,
} from './figure-guard';
import { BLANK_PAGE, measureFrontendBudgets } from './frontend-budgets';
import { measureGatewayOverhead } from './gateway-overhead';
import {
  formatImportListing,
  type ImportFigures,
  importListingRow,
  importListingRows,
  measureImportListing,
  writeImportListingRows,
} from './import-listing';
import {
  formatOrders,
  measureOrders,
  type OrdersFigures,
  orderRow,
  orderRows,
  ordersKind,
  writeOrderRows,
} from './orders';
import { BenchParts } from './parts';
import {
  DEFAULT_KNEE_RATES,
  formatKnee,
  type KneeFigures,
  kneeRow,
  kneeRows,
  measurePipelineKnee,
  writeKneeRows,
} from './pipeline-knee';
import {
  accountingSyncEnv,
  formatQboSync,
  measureQboSync,
  type QboSyncFigures,
  qboSyncRow,
  qboSyncRows,
  writeQboSyncRows,
} from './qbo-sync';
import { describeMachine, formatTable, type Results, recordedRuns, runRows, writeResults } from './report';
import { BENCH_JWT_SECRET, type BenchStack, startBenchStack } from './stack';
import { processRoles } from './stats';
import { formatUsers, measureUsers, type UsersFigures, usersRow, usersRows, writeUsersRows } from './users';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    // The pipeline is measured at each rate in turn, with the events paired to the rates.
    events: { type: 'string', default: '1000,3000' },
    'warmup-events': { type: 'string', default: '300' },
    rate: { type: 'string', default: '50,500' },
    // Then the stepped run that finds the pipeline's knee (pipeline-knee.ts); 'off' skips it.
    'knee-rates': { type: 'string', default: DEFAULT_KNEE_RATES.join(',') },
    customers: { type: 'string', default: '50' },
    // The orders part's estimates (issue 31: the list must not grow with them; 100000 is the second target).
    estimates: { type: 'string', default: '10000' },
    visits: { type: 'string', default: '5' },
    'qbo-limit': { type: 'string', default: '1200' },
    only: { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'infra', 'bench', 'bench-results.md') },
    'no-write': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

const PARTS = [
  'gateway',
  'pipeline',
  'catalogue',
  'checkout',
  'frontend',
  'qbo',
  'orders',
  'users',
  'import',
  'availability',
  'acceptance',
];

const USAGE = `npm run bench [-- options]: the product's figures on this machine, recorded in infra/bench/bench-results.md
  --only <part>[,<part>] these parts: ${PARTS.join(', ')} (default: all, ~16 minutes);
                       or tracing: what tracing costs, off / 10 % / 100 % (tracing-cost.ts, ~15 minutes)
  --seconds 10 --warmup-seconds 10 --connections 50     load of gateway and catalogue
  --events 1000,3000 --warmup-events 300 --rate 50,500  event pipeline, per rate
  --knee-rates 50,100,200,400,800 (or off)  then the pipeline's knee: steps until p99 > 150 ms
  --customers 50 (checkout)  --visits 5 (frontend)  --qbo-limit 1200 (qbo)
  --estimates 10000 (orders: the estimates its lists page through; 100000 for the larger target)
  --log-level warn  --out <file>  --no-write (print only)
A part fails (exit 1, FAILED in its row) when it throws or any answer it checks is wrong. Each row
carries a calibration of the machine (fingerprint, a CPU loop, a bare Fastify rate); the guard
compares new rows with the last row of the same machine, else with a calibrated row of another
machine scaled by the two calibrations, and says which.`;

function positive(name: keyof typeof args, max: number, text = args[name]): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`--${name} must be an integer from 1 to ${max}`);
  return n;
}

/** "50,500" → [50, 500]. */
function positives(name: keyof typeof args, max: number): number[] {
  return String(args[name])
    .split(',')
    .map((text) => positive(name, max, text.trim()));
}

// kafkajs schedules timers with negative delays; Node 24 warns about each (see the root test script).
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'TimeoutNegativeWarning') process.stderr.write(`${w.name}: ${w.message}\n`);
});

/** Set by SIGINT/SIGTERM: the stop in progress will exit; the measurement failing meanwhile is no news. */
let interrupted = false;

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `--only tracing`: what tracing costs (tracing-cost.ts, its own script: it restarts the stack's
 * processes once per setting and round), with the load options given here. Not part of a full run.
 */
function tracingCost(): void {
  const given = (k: string) => process.argv.some((a) => a === `--${k}` || a.startsWith(`--${k}=`));
  const forward = ['seconds', 'warmup-seconds', 'connections'].flatMap((k) =>
    given(k) ? [`--${k}`, String(args[k as keyof typeof args])] : [],
  );
  if (args['no-write']) forward.push('--no-write');
  const script = path.join(REPO_ROOT, 'infra', 'bench', 'src', 'tracing-cost.ts');
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, ...forward], { stdio: 'inherit' });
  if (child.status !== 0) throw new Error(`tracing-cost.ts exited with ${child.status ?? child.signal}`);
}

async function main(): Promise<void> {
  if (args.help) {
    log(USAGE);
    return;
  }
  const options = {
    seconds: positive('seconds', 600),
    warmupSeconds: positive('warmup-seconds', 600),
    connections: positive('connections', 1000),
    events: positives('events', 4000), // BullMQ trims its event stream near 10,000 entries (2 per job)
    warmupEvents: positive('warmup-events', 1000),
    rates: positives('rate', 1000),
    kneeRates: args['knee-rates'] === 'off' ? [] : positives('knee-rates', 4000),
    customers: positive('customers', 500),
    estimates: positive('estimates', 1_000_000),
    visits: positive('visits', 50),
    qboLimit: positive('qbo-limit', 100_000),
  };
  if (args.only === 'tracing') return tracingCost();
  // One part, or several, run in the order a full run takes them (import before qbo, whatever is typed).
  const only = args.only?.split(',').map((part) => part.trim());
  const unknown = only?.find((part) => !PARTS.includes(part));
  if (unknown !== undefined)
    throw new Error(`--only takes parts among ${PARTS.join(', ')}, not '${unknown}'`);
  const runs = (part: string) => !only || only.includes(part);
  // The memory-backed Mongo holds every estimate: 100,000 take about 600 MB (512 MB by default).
  if (runs('orders') && options.estimates > 20_000) process.env.DECOR_MONGO_HEAP ??= '2g';
  const machine = describeMachine();
  log(
    `npm run bench — ${machine.cores} cores, Node ${machine.node}, load ${machine.loadBefore.toFixed(2)}. ` +
      'Services run as separate Node processes (esbuild bundles, as in production); the load generator, ' +
      'services, Kafka, Mongo and Redis all share these cores.',
  );

  let starting: Promise<BenchStack> | undefined;
  const onSignal = () => {
    interrupted = true;
    log('interrupted: stopping everything …');
    // Still starting: wait for it (a failed start has already stopped what it began).
    const stopped = starting?.then((s) => s.stop()) ?? Promise.resolve();
    void stopped.catch(() => {}).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let failed = false;
  try {
    starting = startBenchStack({
      log,
      logLevel: args['log-level'] as string,
      frontends: runs('frontend') ? { shellExtras: { [BLANK_PAGE.file]: BLANK_PAGE.html } } : undefined,
      accountingSync: runs('qbo') || runs('import'),
    });
    const stack = await starting;
    // Before any part, on the machine as the parts find it; without it the guard compares nothing.
    machine.calibration = await measureCalibration(log).catch((err: unknown) => {
      log(`calibration failed, the guard will compare nothing: ${err instanceof Error ? err.message : err}`);
      return undefined;
    });
    const roles = processRoles(stack.pids);
    const results: Results = {
      machine,
      processes:
        'separate Node processes for user, catalogue, cart, order, notification (+ e-mail worker for the checkouts) and gateway (built with infra/cli/src/build.ts)' +
        (runs('frontend') ? '; the gateway serves the built frontends; headless Chromium visits them' : '') +
        (runs('qbo')
          ? '; accounting-sync for the QuickBooks sync (the emulator runs in the bench process)'
          : ''),
    };
    // A part that fails is logged and skipped; the others still run and their figures are printed.
    const part = new BenchParts(log);
    let qbo: QboSyncFigures | undefined;
    let knee: KneeFigures | undefined;
    // First: the browser visits are light, and the machine is at its quietest before the load tests.
    if (runs('frontend'))
      results.frontend = await part.run('frontend', () =>
        measureFrontendBudgets(stack.gatewayUrl, options.visits, log),
      );
    const load = {
      connections: options.connections,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      roles,
    };
    if (runs('gateway')) {
      results.gateway = await part.run('gateway', () =>
        measureGatewayOverhead({ user: stack.userUrl, gateway: stack.gatewayUrl }, load, log),
      );
    }
    if (runs('catalogue')) {
      results.catalogue = await part.run('catalogue', () =>
        measureCatalogueReads({ user: stack.userUrl, gateway: stack.gatewayUrl }, load, log),
      );
    }
    if (runs('pipeline')) {
      results.pipeline = await part.run('pipeline', async () => {
        const figures = [];
        // Slowest first; the warm-up only before the first rate.
        for (const [i, perSecond] of options.rates.entries()) {
          const events = options.events[Math.min(i, options.events.length - 1)] as number;
          const warmupEvents = i === 0 ? options.warmupEvents : 0;
          figures.push(
            await measureEventPipeline(
              {
                userUrl: stack.userUrl,
                kafkaBrokers: stack.endpoints.kafkaBrokers,
                redisUrl: stack.endpoints.redisUrl,
                runId: stack.runId,
              },
              { events, warmupEvents, perSecond, roles },
              log,
            ),
          );
        }
        return figures;
      });
      if (options.kneeRates.length > 0)
        knee = await part.run('pipeline', () =>
          measurePipelineKnee(
            {
              userUrl: stack.userUrl,
              kafkaBrokers: stack.endpoints.kafkaBrokers,
              redisUrl: stack.endpoints.redisUrl,
              runId: stack.runId,
            },
            { rates: options.kneeRates, roles },
            log,
          ),
        );
      await discardPipelineJobs(stack.endpoints.redisUrl, stack.runId);
    }
    // Last: it starts the e-mail worker, which the pipeline figures above are measured without.
    if (runs('checkout')) {
      results.checkouts = await part.run('checkout', () =>
        measureCheckouts({ ...stack, mailApiUrl: stack.endpoints.mailApiUrl }, options.customers, log),
      );
      if (results.checkouts) part.check('checkout', checkoutProblems(results.checkouts));
    }
    // The import dialog's call, before the QuickBooks sync: it connects accounting-sync (started as the
    // sync part runs it) to a company of its own, which no site record links to yet. After the sync
    // part the service would hold links to that part's company, whose QuickBooks ids repeat this one's.
    let importListing: ImportFigures | undefined;
    if (runs('import')) {
      importListing = await part.run('import', () =>
        measureImportListing(
          {
            emulatorUrl: stack.endpoints.qbo.url,
            jwtSecret: BENCH_JWT_SECRET,
            startAccountingSync: () => stack.startAccountingSync(accountingSyncEnv(options.qboLimit)),
          },
          { requests: 100 },
          log,
        ),
      );
      if (importListing) part.check('import', importProblems(importListing));
    }
    // Then the sync rate (the service syncs what the other parts created too).
    if (runs('qbo')) {
      qbo = await part.run('qbo', () =>
        measureQboSync(
          {
            runId: stack.runId,
            kafkaBrokers: stack.endpoints.kafkaBrokers,
            emulatorUrl: stack.endpoints.qbo.url,
            jwtSecret: BENCH_JWT_SECRET,
            pids: stack.pids,
            startAccountingSync: stack.startAccountingSync,
          },
          { limit: options.qboLimit },
          log,
        ),
      );
    }
    // After everything else: 10,000 estimates in the order database would weigh on the checkouts.
    let orders: OrdersFigures | undefined;
    if (runs('orders')) {
      orders = await part.run('orders', () =>
        measureOrders(
          {
            runId: stack.runId,
            gatewayUrl: stack.gatewayUrl,
            gatewayInternalUrl: stack.gatewayInternalUrl,
            orderUrl: stack.orderUrl,
            kafkaBrokers: stack.endpoints.kafkaBrokers,
            jwtSecret: BENCH_JWT_SECRET,
            orderDb: stack.orderDb,
            pids: stack.pids,
          },
          {
            estimates: options.estimates,
            customers: 50,
            requests: 300,
            changes: 500,
            rate: 50,
            streams: 500,
          },
          log,
        ),
      );
      if (orders) part.check('orders', ordersProblems(orders));
    }
    // Then the users lists (10,000 customers and 1,000 companies in the user database).
    let users: UsersFigures | undefined;
    if (runs('users')) {
      users = await part.run('users', () =>
        measureUsers(
          {
            runId: stack.runId,
            gatewayUrl: stack.gatewayUrl,
            jwtSecret: BENCH_JWT_SECRET,
            userDb: stack.userDb,
            pids: stack.pids,
          },
          { companies: 1_000, users: 10_000, requests: 300 },
          log,
        ),
      );
      if (users) part.check('users', usersProblems(users));
    }
    // Bookings by date: the race for the last units, and reads with 100,000 bookings in the store.
    let availability: AvailabilityFigures | undefined;
    if (runs('availability')) {
      availability = await part.run('availability', () =>
        measureAvailability(
          {
            gatewayUrl: stack.gatewayUrl,
            runId: stack.runId,
            jwtSecret: BENCH_JWT_SECRET,
            userDb: stack.userDb,
            orderDb: stack.orderDb,
          },
          log,
        ),
      );
      if (availability) part.check('availability', availabilityProblems(availability));
    }
    // Issue 30: customers accepting estimates (a deposit authorised at the payments emulator).
    let acceptance: AcceptanceFigures | undefined;
    if (runs('acceptance')) {
      acceptance = await part.run('acceptance', () =>
        measureAcceptance(
          {
            gatewayUrl: stack.gatewayUrl,
            runId: stack.runId,
            jwtSecret: BENCH_JWT_SECRET,
            kafkaBrokers: stack.endpoints.kafkaBrokers,
            userDb: stack.userDb,
            paymentsUrl: stack.endpoints.payments.url,
          },
          log,
        ),
      );
      if (acceptance) part.check('acceptance', acceptanceProblems(acceptance));
    }
    log(formatTable(results));
    if (knee) log(formatKnee(knee));
    if (qbo) log(formatQboSync(qbo));
    if (orders) log(formatOrders(orders));
    if (users) log(formatUsers(users));
    if (importListing) log(formatImportListing(importListing));
    if (availability) log(formatAvailability(availability));
    if (acceptance) log(formatAcceptance(acceptance));
    const out = args.out as string;
    // Each part's new rows against an earlier row of the same part (same machine, else scaled by
    // the calibrations): loud when > 50 % worse.
    const { machine: _m, processes: _p, ...runFigures } = results;
    const guard = figureGuard(out, [
      {
        part: 'runs table',
        earlier: recordedRuns(out),
        rows: Object.values(runFigures).some((f) => f !== undefined) ? runRows(results) : [],
        figures: RUNS_FIGURES,
        kind: runKind,
      },
      {
        part: 'pipeline knee',
        earlier: kneeRows(out),
        rows: knee ? [kneeRow(machine, knee)] : [],
        figures: KNEE_FIGURES,
      },
      {
        part: 'qbo',
        earlier: qboSyncRows(out),
        rows: qbo ? [qboSyncRow(machine, qbo)] : [],
        figures: QBO_FIGURES,
      },
      {
        part: 'orders',
        earlier: orderRows(out),
        rows: orders ? [orderRow(machine, orders)] : [],
        figures: ORDERS_FIGURES,
        kind: ordersKind,
      },
      {
        part: 'users',
        earlier: usersRows(out),
        rows: users ? [usersRow(machine, users)] : [],
        figures: USERS_FIGURES,
      },
      {
        part: 'import',
        earlier: importListingRows(out),
        rows: importListing ? [importListingRow(machine, importListing)] : [],
        figures: IMPORT_FIGURES,
      },
      {
        part: 'availability',
        earlier: availabilityRows(out),
        rows: availability ? [availabilityRow(machine, availability)] : [],
        figures: AVAILABILITY_FIGURES,
      },
      {
        part: 'acceptance',
        earlier: acceptanceRows(out),
        rows: acceptance ? [acceptanceRow(machine, acceptance)] : [],
        figures: ACCEPTANCE_FIGURES,
      },
    ]);
    log(`\n${guard.lines.join('\n')}`);
    log(
      guard.alarms > 0
        ? `${guard.alarms} figure(s) more than 50 % worse than their comparison (above)`
        : 'no figure is more than 50 % worse than its comparison',
    );
    if (!args['no-write']) {
      // report.ts rewrites the file with its own table; the QuickBooks sync rows go back after it.
      const qboRows = qboSyncRows(out);
      const kneeRowsBefore = kneeRows(out);
      const ordersRows = orderRows(out);
      const userListRows = usersRows(out);
      const importRows = importListingRows(out);
      const availabilityRowsBefore = availabilityRows(out);
      const acceptanceRowsBefore = acceptanceRows(out);
      const { machine: _, processes: __, ...figures } = results;
      if (Object.values(figures).some((f) => f !== undefined)) writeResults(out, results);
      writeQboSyncRows(out, qbo ? [...qboRows, qboSyncRow(machine, qbo)] : qboRows);
      writeKneeRows(out, knee ? [...kneeRowsBefore, kneeRow(machine, knee)] : kneeRowsBefore);
      // Last: the sections above each rewrite the file from their own heading on.
      writeOrderRows(out, orders ? [...ordersRows, orderRow(machine, orders)] : ordersRows);
      writeUsersRows(out, users ? [...userListRows, usersRow(machine, users)] : userListRows);
      writeImportListingRows(
        out,
        importListing ? [...importRows, importListingRow(machine, importListing)] : importRows,
      );
      writeAvailabilityRows(
        out,
        availability
          ? [...availabilityRowsBefore, availabilityRow(machine, availability)]
          : availabilityRowsBefore,
      );
      writeAcceptanceRows(
        out,
        acceptance ? [...acceptanceRowsBefore, acceptanceRow(machine, acceptance)] : acceptanceRowsBefore,
      );
      const shown = path.relative(process.cwd(), args.out as string);
      log(`\nrecorded in ${shown.startsWith('..') ? args.out : shown}`);
    }
    part.throwIfFailed();
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    if (!interrupted) log('stopping services and infrastructure …');
    await (await starting?.catch(() => undefined))?.stop({ keepLogs: failed });
  }
}

main().then(
  () => process.exit(interrupted ? 130 : 0),
  (err: unknown) => {
    if (interrupted) return;
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
