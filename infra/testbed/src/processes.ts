/**
 * The product as `npm start` runs it (infra/cli/src/start.ts → the supervisor), as a copy of its own:
 * a fresh data dir, every infrastructure and process port on a free port, and a redis-server of its
 * own (the machine's Redis on 6379 is shared with every test: the suite freezes only its own).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, RUNNABLES } from '@decor/cli';
import { descendants } from '@decor/cli/procs';
import { DEMO_REALM_ID } from '@decor/qbo-emulator';
import { freePort, type RunningProcess, redisAnswers, startProcess } from '@decor/stack';

/** One process `npm start` runs: a service, a worker or the gateway, and where its /readyz answers. */
export interface ProductProcess {
  name: string;
  dir: string;
  entry: 'main' | 'worker';
  readyUrl: string;
  /** Its port (PORT, or WORKER_PORT for a worker): tells instances of one process apart. */
  port: number;
}

export interface ChaosStack {
  gatewayUrl: string;
  /** Every gateway instance (one unless started with several instances). */
  gatewayUrls: string[];
  mongoUrl: string;
  kafkaBrokers: string[];
  mailApiUrl: string;
  qboUrl: string;
  /** The payments emulator (issue 30): Stripe's API and its control API under /__emulator. */
  paymentsUrl: string;
  realmId: string;
  /** start.ts's pid: every process of the product is below it. */
  startPid: number;
  redis: RunningProcess;
  processes: ProductProcess[];
  /** A server the suite started again itself (the SMTP fault): stopped after `npm start`. */
  adopt(child: ChildProcess): void;
  /** The last lines `npm start` printed. */
  tail(count?: number): string[];
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

const READY_TIMEOUT_MS = 600_000; // a first run builds the frontends (webpack) too; a busy machine is slow
const KEEP_LINES = 400;

function waitReady(child: ChildProcess, lines: string[]): Promise<void> {
  const tail = () => lines.slice(-40).join('\n');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${tail()}`)),
      READY_TIMEOUT_MS,
    );
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code ?? signal}) before it was ready:\n${tail()}`));
    });
    const onLine = (line: string) => {
      lines.push(line);
      if (lines.length > KEEP_LINES) lines.splice(0, lines.length - KEEP_LINES);
      if (line.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve();
      }
    };
    if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);
  });
}

/**
 * `npm start` on ports drawn free here and bound seconds later: another test's server may take one in
 * between (start.ts then refuses: "port … is already in use"). That start is tried again on fresh ports.
 */
export interface StackOptions {
  /** DECOR_INSTANCES: instances of each service, worker and the gateway (default 1). */
  instances?: number;
  /** More environment for every process (e.g. DRAIN_DELAY_MS). */
  env?: Record<string, string>;
}

export async function startChaosStack(
  log: (line: string) => void,
  opts: StackOptions = {},
): Promise<ChaosStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(log, opts);
    } catch (err) {
      if (attempt >= 3 || !/is already in use|EADDRINUSE/.test((err as Error).message)) throw err;
      log(`chaos: a port was taken before npm start bound it; starting again on fresh ports (${attempt})`);
    }
  }
}

async function startOnce(log: (line: string) => void, opts: StackOptions): Promise<ChaosStack> {
  const instances = opts.instances ?? 1;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'decor-chaos-'));
  const redisPort = await freePort();
  const redis = await startProcess({
    name: 'chaos-redis',
    command: 'redis-server',
    args: ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    quiet: true,
    log,
    ready: () => redisAnswers('127.0.0.1', redisPort),
    probeIntervalMs: 100,
    readyTimeoutMs: 15_000,
  });

  const infraPorts: Record<string, number> = {};
  for (const name of [
    'KAFKA_PORT',
    'KAFKA_CONTROLLER_PORT',
    'MONGO_PORT',
    'S3_PORT',
    'SMTP_PORT',
    'MAIL_API_PORT',
    'QBO_EMULATOR_PORT',
    'PAYMENTS_EMULATOR_PORT',
  ])
    infraPorts[name] = await freePort();
  const processPorts: Record<string, number> = {};
  const processes: ProductProcess[] = [];
  const gatewayUrls: string[] = [];
  for (let k = 1; k <= instances; k++) {
    // As the supervisor names and ports them: instance k ≥ 2 is `<name>-k` on `<PORT_ENV>_k`.
    const named = (name: string) => (k === 1 ? name : `${name}-${k}`);
    const envOf = (name: string) => (k === 1 ? name : `${name}_${k}`);
    for (const r of RUNNABLES) {
      const port = await freePort();
      processPorts[envOf(r.portEnv)] = port;
      let readyPort = port;
      if (r.internalPortEnv) {
        readyPort = await freePort();
        processPorts[envOf(r.internalPortEnv)] = readyPort;
      }
      if (r.name === 'gateway') gatewayUrls.push(`http://127.0.0.1:${port}`);
      processes.push({
        name: named(r.name),
        dir: r.dir,
        entry: 'main',
        readyUrl: `http://127.0.0.1:${readyPort}/readyz`,
        port,
      });
      // The supervisor runs a worker where the runnable has src/worker.ts and a worker port.
      if (r.workerPortEnv && existsSync(path.join(REPO_ROOT, r.dir, 'src', 'worker.ts'))) {
        const workerPort = await freePort();
        processPorts[envOf(r.workerPortEnv)] = workerPort;
        processes.push({
          name: named(`${r.name}-worker`),
          dir: r.dir,
          entry: 'worker',
          readyUrl: `http://127.0.0.1:${workerPort}/readyz`,
          port: workerPort,
        });
      }
    }
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...Object.fromEntries(Object.entries({ ...infraPorts, ...processPorts }).map(([k, v]) => [k, String(v)])),
    DECOR_DATA_DIR: dataDir,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_PREFIX: 'decor',
    KAFKA_TOPIC_PREFIX: 'decor',
    LOG_LEVEL: process.env.CHAOS_LOG_LEVEL || 'warn',
    DECOR_LOG_FORMAT: 'json',
    NO_COLOR: '1',
    ...(instances > 1 ? { DECOR_INSTANCES: String(instances) } : {}),
    // Other test files share the machine's two cores: a start under their load can take minutes.
    DECOR_READY_TIMEOUT_MS: '240000',
    ...opts.env,
  };
  // As `npm start` runs it: start.ts on this Node, with tsx.
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/cli/src/start.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const adopted: ChildProcess[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = ({ keepData = false } = {}) => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const gone = await Promise.race([
          exited.then(() => true),
          sleep(120_000, undefined, { ref: false }).then(() => false),
        ]);
        if (!gone) {
          // Not stopped in 2 minutes: everything below start.ts goes at once.
          for (const p of descendants(child.pid ?? -1)) process.kill(p.pid, 'SIGKILL');
          child.kill('SIGKILL');
        }
      }
      for (const a of adopted) {
        if (a.exitCode !== null || a.signalCode !== null) continue;
        const gone = new Promise((resolve) => a.once('exit', resolve));
        a.kill('SIGTERM');
        await Promise.race([gone, sleep(10_000, undefined, { ref: false }).then(() => a.kill('SIGKILL'))]);
      }
      await redis.stop();
      if (keepData) log(`chaos data and logs kept in ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopping;
  };
  try {
    await waitReady(child, lines);
  } catch (err) {
    await stop({ keepData: true });
    throw err;
  }
  return {
    gatewayUrl: `http://127.0.0.1:${processPorts.GATEWAY_PORT}`,
    gatewayUrls,
    mongoUrl: `mongodb://127.0.0.1:${infraPorts.MONGO_PORT}`,
    kafkaBrokers: [`127.0.0.1:${infraPorts.KAFKA_PORT}`],
    mailApiUrl: `http://127.0.0.1:${infraPorts.MAIL_API_PORT}`,
    qboUrl: `http://127.0.0.1:${infraPorts.QBO_EMULATOR_PORT}`,
    paymentsUrl: `http://127.0.0.1:${infraPorts.PAYMENTS_EMULATOR_PORT}`,
    realmId: DEMO_REALM_ID,
    startPid: child.pid ?? -1,
    redis,
    processes,
    adopt: (c) => adopted.push(c),
    tail: (count = 60) => lines.slice(-count),
    stop,
  };
}
