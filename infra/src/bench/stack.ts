/**
 * What the benchmark measures: test-mode infrastructure (fresh data, free ports) plus the user
 * service, the notification service (no e-mail worker) and the gateway, each built with esbuild
 * (infra/src/cli/build.ts) and run as its own Node process — as in production, so the gateway and
 * the service do not share an event loop with each other or with the load generator.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { buildRunnable } from '../cli/build';
import { REPO_ROOT } from '../cli/runnables';
import type { InfraEndpoints } from '../endpoints';
import { type InfraHandle, startInfra } from '../infra';
import { freePort } from '../ports';
import { type RunningProcess, startProcess } from '../process';

export const BENCH_JWT_SECRET = 'benchmark-secret-never-used-elsewhere';

export interface BenchStack {
  endpoints: InfraEndpoints;
  /** Topic prefix and Redis key prefix of this run (also in its database names). */
  runId: string;
  userUrl: string;
  gatewayUrl: string;
  /** Service role → pid, for the CPU meter. */
  pids: Record<string, number>;
  /** Stops everything that was started, in reverse order; safe to call twice. */
  stop(opts?: { keepLogs?: boolean }): Promise<void>;
}

export interface StackOptions {
  log: (line: string) => void;
  /** LOG_LEVEL of the services and the gateway. */
  logLevel: string;
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
    opts.log('starting test-mode infrastructure and building user, notification, gateway …');
    const [infra] = await Promise.all([
      startInfra({ mode: 'test', log: (line) => opts.log(`  ${line}`) }),
      Promise.all(['services/user', 'services/notification', 'gateway'].map(buildRunnable)),
    ]);
    stoppers.push((infra as InfraHandle).stop);
    const { endpoints } = infra as InfraHandle;
    stoppers.push(() => deleteKeys(endpoints.redisUrl, runId));

    const run = async (
      name: string,
      dir: string,
      env: Record<string, string>,
    ): Promise<{ url: string; child: RunningProcess }> => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = await startProcess({
        name,
        command: process.execPath, // Node 24 (npm run puts node_modules/.bin/node first)
        args: ['--enable-source-maps', '--disable-warning=TimeoutNegativeWarning', 'dist/main.js'],
        cwd: path.join(REPO_ROOT, dir),
        env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: opts.logLevel, NODE_ENV: 'test' },
        logFile: path.join(logDir, `${name}.log`),
        quiet: true,
        ready: async () => (await fetch(`${url}/readyz`)).ok,
        readyTimeoutMs: 60_000,
        stopGraceMs: 10_000,
      });
      stoppers.push(child.stop);
      return { url, child };
    };

    const serviceEnv = (service: string) => ({
      MONGO_URL: endpoints.mongoUrl,
      MONGO_DB: `${runId}_${service}`,
      KAFKA_BROKERS: endpoints.kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: runId,
      REDIS_URL: endpoints.redisUrl,
      REDIS_PREFIX: runId,
      JWT_SECRET: BENCH_JWT_SECRET,
      SMTP_URL: `smtp://${endpoints.smtp.host}:${endpoints.smtp.port}`,
    });
    // Sequential: the user service creates the topics the notification consumer subscribes to.
    const user = await run('user', 'services/user', serviceEnv('user'));
    const notification = await run('notification', 'services/notification', serviceEnv('notification'));
    const gateway = await run('gateway', 'gateway', {
      JWT_SECRET: BENCH_JWT_SECRET,
      USER_SERVICE_URL: user.url,
      NOTIFICATION_SERVICE_URL: notification.url,
      // /auth/* is rate limited per client; the limiter still runs, it just never refuses here.
      AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
    });
    opts.log(
      `services up (run id ${runId}): user ${user.url}, notification ${notification.url}, gateway ${gateway.url}`,
    );
    return {
      endpoints,
      runId,
      userUrl: user.url,
      gatewayUrl: gateway.url,
      pids: { user: user.child.pid, notification: notification.child.pid, gateway: gateway.child.pid },
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
