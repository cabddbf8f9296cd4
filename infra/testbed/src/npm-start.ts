/**
 * `npm start` itself (infra/cli/src/start.ts → the supervisor) as a copy of its own, for the fault
 * suite (src/chaos.ts): a fresh data dir, every infrastructure and process port drawn free, and a
 * redis-server of its own (the machine's Redis on 6379 is shared with every test: the fault suite
 * freezes only its own). The suite tests that real start path — the supervisor starts again what a
 * fault kills, stops layer by layer, runs DECOR_INSTANCES — so it must not start the processes itself;
 * they are planned as the supervisor plans them (processes.ts's `planProcesses`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { descendants } from '@decor/cli/procs';
import { REPO_ROOT } from '@decor/cli/runnables';
import { DEMO_REALM_ID } from '@decor/qbo-emulator';
import {
  DEV_PORTS,
  freePort,
  type RunningProcess,
  redisAnswers,
  restartPortRange,
  startProcess,
} from '@decor/stack';
import { type ProductProcess, planProcesses } from './processes';

/** The copy of `npm start` running. */
export interface NpmStartStack {
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

export interface NpmStartOptions {
  /** DECOR_INSTANCES: instances of each service, worker and the gateway (default 1). */
  instances?: number;
  /** More environment for every process (e.g. DRAIN_DELAY_MS). */
  env?: Record<string, string>;
}

/**
 * `npm start` on ports drawn free here and bound seconds later: another test's server may take one in
 * between (start.ts then refuses: "port … is already in use"). That start is tried again on fresh ports.
 */
export async function startNpmStart(
  log: (line: string) => void,
  opts: NpmStartOptions = {},
): Promise<NpmStartStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNpmStartOnce(log, opts);
    } catch (err) {
      if (attempt >= 3 || !/is already in use|EADDRINUSE/.test((err as Error).message)) throw err;
      log(`a port was taken before npm start bound it; starting again on fresh ports (${attempt})`);
    }
  }
}

async function startNpmStartOnce(log: (line: string) => void, opts: NpmStartOptions): Promise<NpmStartStack> {
  const instances = opts.instances ?? 1;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'decor-chaos-'));
  // The supervisor restarts a killed process on its port, and the chaos suite's faults stop and start
  // Kafka and Redis on theirs: every port from the suite's own range, where no other test draws.
  const ports = restartPortRange('chaos');
  const redisPort = await freePort(ports);
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

  // Every infrastructure port `npm start` reads from env (else its defaults, taken by a developer's run).
  const infraPorts: Record<string, number> = {};
  for (const { env } of Object.values(DEV_PORTS)) infraPorts[env] = await freePort(ports);
  const processes = await planProcesses(instances, ports);
  const processPorts = Object.assign({}, ...processes.map((p) => p.portEnv)) as Record<string, number>;
  const gatewayUrls = processes
    .filter((p) => p.runnable.internalPortEnv)
    .map((p) => `http://127.0.0.1:${p.port}`);
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
