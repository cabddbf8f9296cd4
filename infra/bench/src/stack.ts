/**
 * What the benchmark measures: test-mode infrastructure (fresh data, free ports) plus the user,
 * catalogue, cart, order and notification services and the gateway, each built with esbuild
 * (infra/cli/src/build.ts) and run as its own Node process — as in production, so the gateway and
 * the services do not share an event loop with each other or with the load generator. The testbed
 * composes them (`startProcesses`, infra/testbed/src/processes.ts); this file says what the bench
 * asks of it. The e-mail worker starts only when a measurement asks for it (`startEmailWorker`), and
 * so does the accounting-sync service (`startAccountingSync`, built only with `accountingSync`;
 * pointed at the QuickBooks emulator that the test-mode infrastructure starts). With `frontends`, the
 * three frontends are built first (webpack, unchanged builds reused, as for `npm start`) and the
 * gateway serves a copy of their dist folders (FRONTENDS_DIR), with the extra files asked for added
 * to the shell's copy (the built folders themselves are left as webpack wrote them).
 */
import { randomBytes } from 'node:crypto';
import type { InfraEndpoints } from '@decor/stack';
import { startProcesses } from '@decor/testbed/processes';

/** This run's own (48 random bytes): a published one is refused outside tests (services/kit config.ts). */
export const BENCH_JWT_SECRET = randomBytes(48).toString('base64url');

export interface BenchStack {
  endpoints: InfraEndpoints;
  /** Topic prefix and Redis key prefix of this run (also in its database names). */
  runId: string;
  userUrl: string;
  /** The order service itself (the orders part measures its list without the gateway too). */
  orderUrl: string;
  gatewayUrl: string;
  /** The gateway's internal port: its /readyz and /metrics. */
  gatewayInternalUrl: string;
  /** Where new-estimate notices go (the notification service's STAFF_EMAIL). */
  staffEmail: string;
  /** Connection to the user service's database (the checkout benchmark adds customers there). */
  userDb: { url: string; db: string };
  /** Connection to the order service's database (the orders benchmark inserts estimates there). */
  orderDb: { url: string; db: string };
  startEmailWorker(): Promise<void>;
  /**
   * Starts the accounting-sync service (once; needs `accountingSync` in the options) with these env
   * variables on top of the usual ones (QBO_RATE_LIMIT_PER_MINUTE, …); its URL. Its pid joins `pids`.
   */
  startAccountingSync(env?: Record<string, string>): Promise<{ url: string; pid: number }>;
  /**
   * Stops the six core processes (services and gateway) and starts them again on the same ports,
   * with this process's environment as it is now (tracing-cost.ts switches tracing so, on one
   * infrastructure). Not with the e-mail worker or accounting-sync started. `pids` follows.
   */
  restartServices(): Promise<void>;
  /** Service role → pid, for the CPU meter. */
  readonly pids: Record<string, number>;
  /** Stops everything that was started, in reverse order; safe to call twice. */
  stop(opts?: { keepLogs?: boolean }): Promise<void>;
}

export interface StackOptions {
  log: (line: string) => void;
  /** LOG_LEVEL of the services and the gateway. */
  logLevel: string;
  /** Build the frontends and have the gateway serve them; `shellExtras`: file name → content. */
  frontends?: { shellExtras: Record<string, string> };
  /** Build the accounting-sync service too, so that `startAccountingSync` can run it. */
  accountingSync?: boolean;
}

/** The bench's name for the notification worker in its CPU table (its rows keep it). */
const ROLES: Readonly<Record<string, string>> = { 'notification-worker': 'email-worker' };

/**
 * Starts the stack; if any part fails, what was already started is stopped before the error is
 * rethrown. Child logs go to a temp folder that is kept (and named) only when something failed.
 */
export async function startBenchStack(opts: StackOptions): Promise<BenchStack> {
  const product = await startProcesses({
    log: opts.log,
    logLevel: opts.logLevel,
    runIdPrefix: 'bench',
    jwtSecret: BENCH_JWT_SECRET,
    later: ['notification-worker', ...(opts.accountingSync ? ['accounting-sync'] : [])],
    without: opts.accountingSync ? [] : ['accounting-sync'],
    env: {
      // The pipeline part sends tens of thousands of reset requests for the three demo accounts within
      // minutes (a knee step up to 5,000): at 10,000 an account the limit's 429s ended the knee at 700/s.
      user: { RESETS_PER_ACCOUNT_PER_HOUR: '1000000' },
      // /auth/* is rate limited per client; the limiter still runs, it just never refuses here.
      gateway: { AUTH_RATE_LIMIT_PER_MINUTE: '100000000' },
    },
    ...(opts.frontends ? { frontends: opts.frontends } : {}),
    // BENCH_CPU_PROFILES=<dir>: each process writes a CPU profile there when it stops.
    ...(process.env.BENCH_CPU_PROFILES ? { cpuProfilesDir: process.env.BENCH_CPU_PROFILES } : {}),
  });
  const url = (name: string) => product.urls[name] as string;
  return {
    endpoints: product.endpoints,
    runId: product.runId,
    userUrl: url('user'),
    orderUrl: url('order'),
    gatewayUrl: product.gatewayUrl,
    gatewayInternalUrl: product.gatewayInternalUrl,
    staffEmail: product.staffEmail,
    userDb: product.db('user'),
    orderDb: product.db('order'),
    get pids() {
      return Object.fromEntries(
        Object.entries(product.pids).map(([name, pid]) => [ROLES[name] ?? name, pid]),
      );
    },
    startEmailWorker: async () => {
      await product.start('notification-worker');
    },
    startAccountingSync: (env = {}) => {
      if (!opts.accountingSync) throw new Error('the bench stack was started without accountingSync');
      // After the other services: the topics it consumes (user, catalogue, order) exist by now.
      return product.start('accounting-sync', env);
    },
    restartServices: () => product.restart(),
    stop: (stopOpts) => product.stop(stopOpts),
  };
}
