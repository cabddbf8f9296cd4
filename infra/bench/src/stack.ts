/**
 * What the benchmark measures: test-mode infrastructure (fresh data, free ports) plus the user,
 * catalogue, cart, order and notification services and the gateway, each built with esbuild
 * (infra/cli/src/build.ts) and run as its own Node process — as in production, so the gateway and
 * the services do not share an event loop with each other or with the load generator. The e-mail
 * worker starts only when a measurement asks for it (`startEmailWorker`), and so does the accounting-sync
 * service (`startAccountingSync`, built only with `accountingSync`; pointed at the QuickBooks emulator
 * that the test-mode infrastructure starts). With `frontends`, the three
 * frontends are built first (webpack, unchanged builds reused, as for `npm start`) and the gateway
 * serves a copy of their dist folders (FRONTENDS_DIR), with the extra files asked for added to the
 * shell's copy (the built folders themselves are left as webpack wrote them).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildFrontends, buildRunnable, describeFrontendBuilds, FRONTENDS, REPO_ROOT } from '@decor/cli';
import {
  freePort,
  type InfraEndpoints,
  type InfraHandle,
  paymentsEnv,
  qboEnv,
  type RunningProcess,
  startInfra,
  startProcess,
} from '@decor/stack';
import { Redis } from 'ioredis';

/** This run's own (48 random bytes): a published one is refused outside tests (services/kit config.ts). */
export const BENCH_JWT_SECRET = randomBytes(48).toString('base64url');
const BENCH_QBO_TOKEN_KEY = randomBytes(32).toString('base64');

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
  pids: Record<string, number>;
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

/**
 * Starts the stack; if any part fails, what was already started is stopped before the error is
 * rethrown. Child logs go to a temp folder that is kept (and named) only when something failed.
 */
export async function startBenchStack(opts: StackOptions): Promise<BenchStack> {
  const runId = `bench${randomBytes(3).toString('hex')}`;
  const logDir = mkdtempSync(path.join(tmpdir(), 'decor-bench-'));
  const stoppers: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  const stop = ({ keepLogs = false } = {}) => {
    stopping ??= (async () => {
      for (const s of stoppers.reverse()) await s().catch((err: Error) => opts.log(`stop: ${err.message}`));
      if (keepLogs) opts.log(`child logs kept in ${logDir}`);
      else rmSync(logDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    let frontendsDir: string | undefined;
    if (opts.frontends) {
      // Before anything else: webpack is CPU-heavy, and a failed build then stops nothing.
      opts.log('building the frontends (unchanged builds reused) …');
      opts.log(`  frontends: ${describeFrontendBuilds(await buildFrontends())}`);
      const dir = mkdtempSync(path.join(tmpdir(), 'decor-bench-frontends-'));
      frontendsDir = dir;
      stoppers.push(async () => rmSync(dir, { recursive: true, force: true }));
      for (const app of FRONTENDS) {
        cpSync(path.join(REPO_ROOT, 'frontends', app, 'dist'), path.join(dir, app, 'dist'), {
          recursive: true,
        });
      }
      // The public pages' server renderer: without it the gateway serves the plain shell (no SSR).
      cpSync(
        path.join(REPO_ROOT, 'frontends', 'shell', 'dist-server'),
        path.join(dir, 'shell', 'dist-server'),
        {
          recursive: true,
        },
      );
      for (const [name, content] of Object.entries(opts.frontends.shellExtras)) {
        writeFileSync(path.join(dir, 'shell', 'dist', name), content);
      }
    }
    opts.log('starting test-mode infrastructure and building the services and the gateway …');
    const [infra] = await Promise.all([
      startInfra({ mode: 'test', log: (line) => opts.log(`  ${line}`) }),
      Promise.all(
        [
          'services/user',
          'services/catalogue',
          'services/cart',
          'services/order',
          'services/notification',
          'gateway',
          ...(opts.accountingSync ? ['services/accounting-sync'] : []),
        ].map(buildRunnable),
      ),
    ]);
    stoppers.push((infra as InfraHandle).stop);
    const { endpoints } = infra as InfraHandle;
    stoppers.push(() => deleteKeys(endpoints.redisUrl, runId));

    const run = async (
      name: string,
      dir: string,
      env: Record<string, string>,
      main = 'dist/main.js',
      // The gateway answers /readyz on an internal port of its own.
      internalPort?: number,
      port?: number,
    ): Promise<{ url: string; child: RunningProcess }> => {
      port ??= await freePort();
      const url = `http://127.0.0.1:${port}`;
      const probeUrl = internalPort ? `http://127.0.0.1:${internalPort}` : url;
      const child = await startProcess({
        name,
        command: process.execPath, // Node 24 (npm run puts node_modules/.bin/node first)
        args: [
          '--enable-source-maps',
          '--disable-warning=TimeoutNegativeWarning',
          // BENCH_CPU_PROFILES=<dir>: each process writes a CPU profile there when it stops.
          ...(process.env.BENCH_CPU_PROFILES
            ? [
                '--cpu-prof',
                `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILES}`,
                `--cpu-prof-name=${name}.cpuprofile`,
              ]
            : []),
          main,
        ],
        cwd: path.join(REPO_ROOT, dir),
        env: {
          PORT: String(port),
          WORKER_PORT: String(port),
          ...env,
          HOST: '127.0.0.1',
          LOG_LEVEL: opts.logLevel,
          NODE_ENV: 'test',
        },
        logFile: path.join(logDir, `${name}.log`),
        quiet: true,
        // The gateway's internal port (its /readyz) opens before its public one: wait for both, or
        // the first request of a measurement can be refused.
        ready: async () =>
          (await fetch(`${probeUrl}/readyz`)).ok &&
          (probeUrl === url || (await fetch(url, { method: 'HEAD' }).then(() => true))),
        readyTimeoutMs: 120_000, // a loaded 2-core machine took over 60 s for one service
        stopGraceMs: 10_000,
      });
      stoppers.push(child.stop);
      return { url, child };
    };

    const staffEmail = `staff-${runId}@decor.example`;
    const serviceEnv = (service: string) => ({
      MONGO_URL: endpoints.mongoUrl,
      MONGO_DB: `${runId}_${service}`,
      KAFKA_BROKERS: endpoints.kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: runId,
      REDIS_URL: endpoints.redisUrl,
      REDIS_PREFIX: runId,
      JWT_SECRET: BENCH_JWT_SECRET,
      QBO_TOKEN_KEY: BENCH_QBO_TOKEN_KEY,
      SMTP_URL: `smtp://${endpoints.smtp.host}:${endpoints.smtp.port}`,
      S3_ENDPOINT: endpoints.s3.endpoint,
      S3_BUCKET: endpoints.s3.bucket,
      S3_REGION: endpoints.s3.region,
      S3_ACCESS_KEY_ID: endpoints.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: endpoints.s3.secretAccessKey,
      S3_PUBLIC_URL: `${endpoints.s3.endpoint}/${endpoints.s3.bucket}`,
      S3_KEY_PREFIX: `${runId}/products`,
      STAFF_EMAIL: staffEmail,
      ...qboEnv(endpoints),
    });
    // The same ports on a restart (restartServices): the gateway and the bench keep their URLs.
    const ports = {
      user: await freePort(),
      catalogue: await freePort(),
      cart: await freePort(),
      order: await freePort(),
      notification: await freePort(),
      gateway: await freePort(),
      gatewayInternal: await freePort(),
    };
    const startServices = async () => {
      // Sequential: each service creates the topics of what it publishes before its consumers need them.
      // The pipeline part sends thousands of reset requests for the three demo accounts within minutes.
      const user = await run(
        'user',
        'services/user',
        {
          ...serviceEnv('user'),
          RESETS_PER_ACCOUNT_PER_HOUR: '10000',
        },
        undefined,
        undefined,
        ports.user,
      );
      const catalogue = await run(
        'catalogue',
        'services/catalogue',
        serviceEnv('catalogue'),
        undefined,
        undefined,
        ports.catalogue,
      );
      const cart = await run('cart', 'services/cart', serviceEnv('cart'), undefined, undefined, ports.cart);
      const order = await run(
        'order',
        'services/order',
        // Deposits are authorised at the test-mode payments emulator, never at Stripe (issue 30).
        { ...serviceEnv('order'), ...paymentsEnv(endpoints, {}) },
        undefined,
        undefined,
        ports.order,
      );
      const notification = await run(
        'notification',
        'services/notification',
        serviceEnv('notification'),
        undefined,
        undefined,
        ports.notification,
      );
      const gatewayInternalPort = ports.gatewayInternal;
      const gatewayEnv = {
        JWT_SECRET: BENCH_JWT_SECRET,
        INTERNAL_PORT: String(gatewayInternalPort),
        // Its rate-limit counters, with this run's other keys.
        REDIS_URL: endpoints.redisUrl,
        REDIS_PREFIX: runId,
        USER_SERVICE_URL: user.url,
        CATALOGUE_SERVICE_URL: catalogue.url,
        CART_SERVICE_URL: cart.url,
        ORDER_SERVICE_URL: order.url,
        NOTIFICATION_SERVICE_URL: notification.url,
        // Its cache of catalogue reads is cleared by this run's catalogue events.
        KAFKA_BROKERS: endpoints.kafkaBrokers.join(','),
        KAFKA_TOPIC_PREFIX: runId,
        // /auth/* is rate limited per client; the limiter still runs, it just never refuses here.
        AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
        // Its Content-Security-Policy lets pages load product images from the bucket.
        S3_PUBLIC_URL: `${endpoints.s3.endpoint}/${endpoints.s3.bucket}`,
        ...(frontendsDir ? { FRONTENDS_DIR: frontendsDir } : {}),
      };
      const gateway = await run(
        'gateway',
        'gateway',
        gatewayEnv,
        undefined,
        gatewayInternalPort,
        ports.gateway,
      );
      return { user, catalogue, cart, order, notification, gateway };
    };
    let services = await startServices();
    const { user, gateway } = services;
    opts.log(`services up (run id ${runId}); gateway ${gateway.url}`);
    const pids: Record<string, number> = {};
    const notePids = () =>
      Object.assign(
        pids,
        Object.fromEntries(Object.entries(services).map(([role, s]) => [role, s.child.pid])),
      );
    notePids();
    let worker: Promise<unknown> | undefined;
    let accountingSync: Promise<{ url: string; pid: number }> | undefined;
    return {
      endpoints,
      runId,
      userUrl: user.url,
      orderUrl: services.order.url,
      gatewayUrl: gateway.url,
      gatewayInternalUrl: `http://127.0.0.1:${ports.gatewayInternal}`,
      staffEmail,
      userDb: { url: endpoints.mongoUrl, db: `${runId}_user` },
      orderDb: { url: endpoints.mongoUrl, db: `${runId}_order` },
      pids,
      startEmailWorker: async () => {
        worker ??= run(
          'email-worker',
          'services/notification',
          serviceEnv('notification'),
          'dist/worker.js',
        ).then((w) => {
          pids['email-worker'] = w.child.pid;
        });
        await worker;
      },
      startAccountingSync: (env = {}) => {
        if (!opts.accountingSync) throw new Error('the bench stack was started without accountingSync');
        // After the other services: the topics it consumes (user, catalogue, order) exist by now.
        accountingSync ??= run('accounting-sync', 'services/accounting-sync', {
          ...serviceEnv('accounting-sync'),
          ...env,
        }).then((s) => {
          pids['accounting-sync'] = s.child.pid;
          return { url: s.url, pid: s.child.pid };
        });
        return accountingSync;
      },
      restartServices: async () => {
        if (worker || accountingSync) throw new Error('restartServices: only the six core processes restart');
        // As a rolling update would, in reverse order: the gateway first, so no request meets a gap.
        for (const s of Object.values(services).reverse()) await s.child.stop();
        services = await startServices();
        notePids();
      },
      stop,
    };
  } catch (err) {
    await stop({ keepLogs: true });
    throw err;
  }
}

/** BullMQ keys of this run on the (possibly shared) Redis. */
async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
