import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildFrontends, buildRunnable, describeFrontendBuilds, FRONTENDS } from '@decor/cli';
import { REPO_ROOT, RUNNABLES, type Runnable } from '@decor/cli/runnables';
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

/** One process of the product: a service, a worker or the gateway, and where its /readyz answers. */
export interface ProductProcess {
  name: string;
  dir: string;
  entry: 'main' | 'worker';
  readyUrl: string;
  /** Its port (PORT, or WORKER_PORT for a worker): tells instances of one process apart. */
  port: number;
}

/** A process as planned: its runnable, and the env variables of `npm start` that pin its ports. */
export interface PlannedProcess extends ProductProcess {
  runnable: Runnable;
  /** 1, or k for the k-th instance. */
  instance: number;
  /** The gateway's internal port (its /readyz and /metrics). */
  internalPort?: number;
  /** `npm start`'s port variables for it (GATEWAY_PORT, GATEWAY_INTERNAL_PORT_2, …) → port. */
  portEnv: Record<string, number>;
}

/** Whether the supervisor runs a worker for this runnable: it has src/worker.ts and a worker port. */
export const hasWorker = (r: Runnable): boolean =>
  r.workerPortEnv !== undefined && existsSync(path.join(REPO_ROOT, r.dir, 'src', 'worker.ts'));

/**
 * Every process of `instances` copies of the product, as the supervisor plans them, each on a free
 * port (drawn from `range` when given: see startNpmStart).
 */
export async function planProcesses(
  instances = 1,
  range?: { bottom: number; top: number },
): Promise<PlannedProcess[]> {
  const planned: PlannedProcess[] = [];
  for (let k = 1; k <= instances; k++) {
    const named = (name: string) => (k === 1 ? name : `${name}-${k}`);
    const envOf = (name: string) => (k === 1 ? name : `${name}_${k}`);
    for (const r of RUNNABLES) {
      const port = await freePort(range);
      const internalPort = r.internalPortEnv ? await freePort(range) : undefined;
      planned.push({
        name: named(r.name),
        dir: r.dir,
        entry: 'main',
        readyUrl: `http://127.0.0.1:${internalPort ?? port}/readyz`,
        port,
        runnable: r,
        instance: k,
        ...(internalPort ? { internalPort } : {}),
        portEnv: {
          [envOf(r.portEnv)]: port,
          ...(r.internalPortEnv && internalPort ? { [envOf(r.internalPortEnv)]: internalPort } : {}),
        },
      });
      if (r.workerPortEnv && hasWorker(r)) {
        const workerPort = await freePort(range);
        planned.push({
          name: named(`${r.name}-worker`),
          dir: r.dir,
          entry: 'worker',
          readyUrl: `http://127.0.0.1:${workerPort}/readyz`,
          port: workerPort,
          runnable: r,
          instance: k,
          portEnv: { [envOf(r.workerPortEnv)]: workerPort },
        });
      }
    }
  }
  return planned;
}

// ---------------------------------------------------------------------------------------------------
// startProcesses: each runnable as its own Node process, started here.

export interface ProcessesOptions {
  log: (line: string) => void;
  /** LOG_LEVEL of every process. */
  logLevel: string;
  /** The run id's prefix (its topics, Redis keys and databases carry the run id); default 'testbed'. */
  runIdPrefix?: string;
  /** JWT_SECRET of every process; default a fresh random one (a published one is refused outside tests). */
  jwtSecret?: string;
  /** Processes (by name) built but started only by `start(name)`, e.g. 'notification-worker'. */
  later?: readonly string[];
  /** Processes (by name) neither built nor started. */
  without?: readonly string[];
  /** More env for one process (by name), over what it is given here. */
  env?: Readonly<Record<string, Record<string, string>>>;
  /**
   * Build the frontends (unchanged builds reused, as for `npm start`) and have the gateway serve a copy
   * of their dist folders (FRONTENDS_DIR), with these files (name → content) added to the shell's copy.
   */
  frontends?: { shellExtras: Record<string, string> };
  /** Each process writes a CPU profile (`<name>.cpuprofile`) here when it stops. */
  cpuProfilesDir?: string;
}

export interface ProductProcesses {
  endpoints: InfraEndpoints;
  /** Topic prefix and Redis key prefix of this run (also in its database names). */
  runId: string;
  jwtSecret: string;
  /** Where new-estimate notices go (the notification service's STAFF_EMAIL). */
  staffEmail: string;
  /** Process name → its URL (PORT, or WORKER_PORT for a worker), of every process planned. */
  urls: Readonly<Record<string, string>>;
  gatewayUrl: string;
  /** The gateway's internal port: its /readyz and /metrics. */
  gatewayInternalUrl: string;
  /** A service's database on the test-mode MongoDB. */
  db(service: string): { url: string; db: string };
  /** Process name → pid, of each process running now (updated by `start` and `restart`). */
  pids: Record<string, number>;
  /** Starts one of the `later` processes (once; a second call waits for the first), with more env. */
  start(name: string, env?: Record<string, string>): Promise<{ url: string; pid: number }>;
  /**
   * Stops the processes started at once (the gateway first, as a rolling update would) and starts
   * them again on the same ports, with this process's environment as it is now. Not once a `later`
   * process runs.
   */
  restart(): Promise<void>;
  /** Stops everything that was started, in reverse order; safe to call twice. */
  stop(opts?: { keepLogs?: boolean }): Promise<void>;
}

/**
 * Test-mode infrastructure and the product's processes, each bundled and run as in production; if any
 * part fails, what was already started is stopped before the error is rethrown. The processes start
 * one at a time in RUNNABLES' order (each service creates the topics of what it publishes before its
 * consumers need them), the gateway last, pointed at the services started with it. Child logs go to a
 * temp folder that is kept (and named) only when something failed.
 */
export async function startProcesses(opts: ProcessesOptions): Promise<ProductProcesses> {
  const runId = `${opts.runIdPrefix ?? 'testbed'}${randomBytes(3).toString('hex')}`;
  const jwtSecret = opts.jwtSecret ?? randomBytes(48).toString('base64url');
  const qboTokenKey = randomBytes(32).toString('base64');
  const logDir = mkdtempSync(path.join(tmpdir(), `decor-${opts.runIdPrefix ?? 'testbed'}-`));
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
    const without = new Set(opts.without ?? []);
    const later = new Set(opts.later ?? []);
    const planned = (await planProcesses(1)).filter((p) => !without.has(p.name));
    for (const name of [...without, ...later]) {
      if (!RUNNABLES.some((r) => r.name === name || `${r.name}-worker` === name))
        throw new Error(`startProcesses: no process named '${name}'`);
    }
    let frontendsDir: string | undefined;
    if (opts.frontends) {
      // Before anything else: webpack is CPU-heavy, and a failed build then stops nothing.
      opts.log('building the frontends (unchanged builds reused) …');
      opts.log(`  frontends: ${describeFrontendBuilds(await buildFrontends())}`);
      const dir = mkdtempSync(path.join(tmpdir(), 'decor-frontends-'));
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
        { recursive: true },
      );
      for (const [name, content] of Object.entries(opts.frontends.shellExtras)) {
        writeFileSync(path.join(dir, 'shell', 'dist', name), content);
      }
    }
    opts.log('starting test-mode infrastructure and building the services and the gateway …');
    const dirs = [...new Set(planned.map((p) => p.dir))];
    const [infra] = await Promise.all([
      startInfra({ mode: 'test', log: (line) => opts.log(`  ${line}`) }),
      Promise.all(dirs.map(buildRunnable)),
    ]);
    stoppers.push((infra as InfraHandle).stop);
    const { endpoints } = infra as InfraHandle;
    stoppers.push(() => deleteKeys(endpoints.redisUrl, runId));

    const staffEmail = `staff-${runId}@decor.example`;
    const url = (p: PlannedProcess) => `http://127.0.0.1:${p.port}`;
    const atOnce = planned.filter((p) => !later.has(p.name));
    const serviceEnv = (service: string): Record<string, string> => ({
      MONGO_URL: endpoints.mongoUrl,
      MONGO_DB: `${runId}_${service}`,
      KAFKA_BROKERS: endpoints.kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: runId,
      REDIS_URL: endpoints.redisUrl,
      REDIS_PREFIX: runId,
      JWT_SECRET: jwtSecret,
      QBO_TOKEN_KEY: qboTokenKey,
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
      // Deposits are authorised at the test-mode payments emulator, never at Stripe (issue 30).
      ...paymentsEnv(endpoints, {}),
    });
    const gatewayEnv = (p: PlannedProcess): Record<string, string> => ({
      JWT_SECRET: jwtSecret,
      INTERNAL_PORT: String(p.internalPort),
      // Its rate-limit counters, with this run's other keys.
      REDIS_URL: endpoints.redisUrl,
      REDIS_PREFIX: runId,
      // Each service started with it (a later one is not reached through it).
      ...Object.fromEntries(
        atOnce.flatMap((s) => (s.entry === 'main' && s.runnable.urlEnv ? [[s.runnable.urlEnv, url(s)]] : [])),
      ),
      // Its cache of catalogue reads is cleared by this run's catalogue events.
      KAFKA_BROKERS: endpoints.kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: runId,
      // Its Content-Security-Policy lets pages load product images from the bucket.
      S3_PUBLIC_URL: `${endpoints.s3.endpoint}/${endpoints.s3.bucket}`,
      ...(frontendsDir ? { FRONTENDS_DIR: frontendsDir } : {}),
    });

    const run = async (p: PlannedProcess, extra: Record<string, string> = {}): Promise<RunningProcess> => {
      const probeUrl = `http://127.0.0.1:${p.internalPort ?? p.port}`;
      const child = await startProcess({
        name: p.name,
        command: process.execPath, // Node 24 (npm run puts node_modules/.bin/node first)
        args: [
          '--enable-source-maps',
          '--disable-warning=TimeoutNegativeWarning',
          ...(opts.cpuProfilesDir
            ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfilesDir}`, `--cpu-prof-name=${p.name}.cpuprofile`]
            : []),
          `dist/${p.entry}.js`,
        ],
        cwd: path.join(REPO_ROOT, p.dir),
        env: {
          PORT: String(p.port),
          WORKER_PORT: String(p.port),
          ...(p.runnable.internalPortEnv ? gatewayEnv(p) : serviceEnv(p.runnable.name)),
          ...opts.env?.[p.name],
          ...extra,
          HOST: '127.0.0.1',
          LOG_LEVEL: opts.logLevel,
          NODE_ENV: 'test',
        },
        logFile: path.join(logDir, `${p.name}.log`),
        quiet: true,
        // The gateway's internal port (its /readyz) opens before its public one: wait for both, or
        // the first request of a measurement can be refused.
        ready: async () =>
          (await fetch(`${probeUrl}/readyz`)).ok &&
          (probeUrl === url(p) || (await fetch(url(p), { method: 'HEAD' }).then(() => true))),
        readyTimeoutMs: 120_000, // a loaded 2-core machine took over 60 s for one service
        stopGraceMs: 10_000,
      });
      stoppers.push(child.stop);
      pids[p.name] = child.pid;
      return child;
    };

    const pids: Record<string, number> = {};
    const startAtOnce = async () => {
      const started: RunningProcess[] = [];
      for (const p of atOnce) started.push(await run(p));
      return started;
    };
    let running = await startAtOnce();
    const gateway = planned.find((p) => p.runnable.internalPortEnv);
    if (!gateway) throw new Error('startProcesses: the gateway is left out');
    opts.log(`services up (run id ${runId}); gateway ${url(gateway)}`);
    const started = new Map<string, Promise<{ url: string; pid: number }>>();
    return {
      endpoints,
      runId,
      jwtSecret,
      staffEmail,
      urls: Object.fromEntries(planned.map((p) => [p.name, url(p)])),
      gatewayUrl: url(gateway),
      gatewayInternalUrl: `http://127.0.0.1:${gateway.internalPort}`,
      db: (service) => ({ url: endpoints.mongoUrl, db: `${runId}_${service}` }),
      pids,
      start: (name, env = {}) => {
        const p = planned.find((q) => q.name === name);
        if (!p || !later.has(name))
          throw new Error(`startProcesses: '${name}' is not one of the later processes`);
        let once = started.get(name);
        if (!once) {
          once = run(p, env).then((child) => ({ url: url(p), pid: child.pid }));
          started.set(name, once);
        }
        return once;
      },
      restart: async () => {
        if (started.size > 0) throw new Error('restart: only the processes started at once restart');
        // As a rolling update would, in reverse order: the gateway first, so no request meets a gap.
        for (const child of [...running].reverse()) await child.stop();
        for (const p of atOnce) delete pids[p.name];
        running = await startAtOnce();
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
