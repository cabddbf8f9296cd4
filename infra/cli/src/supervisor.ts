/**
 * The supervisor of `npm start` (started by start.ts in a session of its own): builds the runnables,
 * starts the local infrastructure, then every service and worker in parallel and the gateway last,
 * each as its own process with prefixed logs, waits until each answers /readyz 200, and prints where
 * everything is. SIGINT/SIGTERM (relayed by start.ts) stops the gateway, then services and workers,
 * then the infrastructure, each with a status line. Exit code 0 only if everything stopped cleanly.
 *
 * A service, worker or the gateway that dies after start-up is reported loudly (name, exit, last
 * lines) and started again after a growing wait; after repeated crashes it is given up on with a
 * line saying so (restart.ts). The rest keep running throughout: a crash in one service should not
 * take down Kafka and the person's session. One given up on makes the exit code 1 (a restarted one
 * that is running again stops cleanly). If start-up fails anywhere, what started is stopped and the
 * cause printed (exit 1); interrupted once the infrastructure is up, the starts under way stop their
 * processes and what started stops layer by layer as above (exit 130).
 */
import { appendFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  assertPortFree,
  describePolicy,
  INFRA_DIR,
  type InfraEndpoints,
  type InfraHandle,
  type ProcessSpec,
  paymentsEnv,
  portFromEnv,
  prefixFor,
  qboEnv,
  type SupervisedProcess,
  startInfra,
  superviseProcess,
} from '@decor/stack';
import { buildRunnable } from './build';
import { seedDemoOrders } from './demo-orders';
import { buildFrontends, describeFrontendBuilds } from './frontends';
import { readableLine, worthShowing } from './log-lines';
import { GATEWAY, REPO_ROOT, RUNNABLES, type Runnable } from './runnables';
import { startTracingViewer, type TracingViewer, tracingRequested } from './tracing';

/** runService's shutdown budget is 20 s; past that the child is killed. */
const STOP_GRACE_MS = 25_000;
/** How long a process may take to answer /readyz; DECOR_READY_TIMEOUT_MS for a busy machine (the chaos suites). */
const READY_TIMEOUT_MS = Number(process.env.DECOR_READY_TIMEOUT_MS) || 90_000;

const out = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const tty = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (text: string) => (tty ? `\x1b[1m${text}\x1b[0m` : text);
/** `npm start -- --verbose`: every line of every process in the terminal, as in its log file. */
const verbose = process.argv.includes('--verbose');
/** The servers startInfra may start, by the prefix of their output lines. */
const INFRA_SERVERS = ['kafka', 'mongo', 'redis', 's3', 'mail', 'qbo', 'payments'];

/** One process to start: a service's main, a service's worker, or the gateway. */
interface Planned {
  name: string;
  /** 1, or k for the k-th instance (DECOR_INSTANCES). */
  instance: number;
  runnable: Runnable;
  kind: 'service' | 'worker' | 'gateway';
  entry: string;
  port: number;
  portEnv: string;
  /** Where /readyz answers when not on `port` (the gateway's internal port). */
  internal?: { port: number; portEnv: string };
}

interface Started extends Planned {
  proc: SupervisedProcess;
  url: string;
}

function portOffset(): number {
  const raw = process.env.DECOR_PORT_OFFSET ?? '';
  const offset = raw === '' ? 0 : Number(raw);
  if (!Number.isInteger(offset) || offset < 0 || offset + GATEWAY.port > 65535) {
    throw new Error(`DECOR_PORT_OFFSET=${raw} must be a whole number from 0 to ${65535 - GATEWAY.port}`);
  }
  return offset;
}

/**
 * DECOR_INSTANCES (default 1): how many instances of each service, worker and the gateway. Instance k
 * of a process (k ≥ 2) is named `<name>-k` and listens on `<PORT_ENV>_k`, default its port + 100·(k-1);
 * the gateways reach every instance of each service (a comma-separated *_SERVICE_URL).
 */
function instanceCount(): number {
  const raw = process.env.DECOR_INSTANCES ?? '';
  const n = raw === '' ? 1 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 9) throw new Error(`DECOR_INSTANCES=${raw} must be 1 to 9`);
  return n;
}

function plan(offset: number, instances = instanceCount()): Planned[] {
  const planned: Planned[] = [];
  for (let k = 1; k <= instances; k++) {
    const named = (name: string) => (k === 1 ? name : `${name}-${k}`);
    const portOf = (env: string, base: number) =>
      k === 1 ? portFromEnv(env, base + offset) : portFromEnv(`${env}_${k}`, base + 100 * (k - 1) + offset);
    for (const r of RUNNABLES) {
      const kind = r === GATEWAY ? 'gateway' : 'service';
      planned.push({
        name: named(r.name),
        instance: k,
        runnable: r,
        kind,
        entry: 'main',
        port: portOf(r.portEnv, r.port),
        portEnv: k === 1 ? r.portEnv : `${r.portEnv}_${k}`,
        ...(r.internalPort && r.internalPortEnv
          ? {
              internal: {
                port: portOf(r.internalPortEnv, r.internalPort),
                portEnv: k === 1 ? r.internalPortEnv : `${r.internalPortEnv}_${k}`,
              },
            }
          : {}),
      });
      const hasWorker = existsSync(path.join(REPO_ROOT, r.dir, 'src', 'worker.ts'));
      if (hasWorker && r.workerPort && r.workerPortEnv) {
        planned.push({
          name: named(`${r.name}-worker`),
          instance: k,
          runnable: r,
          kind: 'worker',
          entry: 'worker',
          port: portOf(r.workerPortEnv, r.workerPort),
          portEnv: k === 1 ? r.workerPortEnv : `${r.workerPortEnv}_${k}`,
        });
      }
    }
  }
  return planned;
}

async function assertPortsFree(planned: Planned[]): Promise<void> {
  const fix = (p: Planned) => `${p.portEnv}, or DECOR_PORT_OFFSET to move them all,`;
  const ports = planned.flatMap((p) => [
    { p, port: p.port, portEnv: p.portEnv },
    ...(p.internal ? [{ p, ...p.internal }] : []),
  ]);
  const checks = await Promise.allSettled(
    ports.map(({ p, port, portEnv }) => assertPortFree(port, p.name, fix({ ...p, portEnv }))),
  );
  const taken = checks.flatMap((c) => (c.status === 'rejected' ? [(c.reason as Error).message] : []));
  if (taken.length === 1) throw new Error(taken[0]);
  if (taken.length > 1) throw new Error(`ports taken:\n${taken.map((t) => `  • ${t}`).join('\n')}`);
}

/** Env every service and worker gets; unset keys (MONGO_DB) fall back to each service's default. */
function serviceEnv(e: InfraEndpoints, gatewayPort: number, offset: number): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    MONGO_URL: e.mongoUrl,
    MONGO_DB: undefined,
    KAFKA_BROKERS: e.kafkaBrokers.join(','),
    // The services' events and the gateway's cache of catalogue reads (cleared by them) share it.
    KAFKA_TOPIC_PREFIX: process.env.KAFKA_TOPIC_PREFIX || 'decor',
    REDIS_URL: e.redisUrl,
    REDIS_PREFIX: process.env.REDIS_PREFIX || (offset === 0 ? 'decor' : `decor-${offset}`),
    SMTP_URL: `smtp://${e.smtp.host}:${e.smtp.port}`,
    S3_ENDPOINT: e.s3.endpoint,
    S3_BUCKET: e.s3.bucket,
    S3_REGION: e.s3.region,
    S3_ACCESS_KEY_ID: e.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: e.s3.secretAccessKey,
    S3_PUBLIC_URL: `${e.s3.endpoint}/${e.s3.bucket}`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
    // start.ts passes this installation's own (infra/.data/jwt-secret, qbo-token-key) unless given.
    JWT_SECRET: process.env.JWT_SECRET,
    QBO_TOKEN_KEY: process.env.QBO_TOKEN_KEY,
    ...qboEnv(e),
    ...paymentsEnv(e),
  };
}

/** Where the payments emulator sends its webhooks: the (first) gateway's receiver. */
function paymentsWebhookUrl(planned: Planned[]): string {
  const gateway = planned.find((p) => p.kind === 'gateway');
  return process.env.PAYMENTS_WEBHOOK_URL || `http://127.0.0.1:${gateway?.port}/api/payments/webhook`;
}

async function readyz(url: string): Promise<boolean> {
  const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3_000) });
  if (res.status === 200) return true;
  // Thrown so a timeout names what is still not ready (Mongo, Kafka, Redis…).
  throw new Error(`/readyz answered ${res.status} ${(await res.text()).slice(0, 300)}`);
}

async function healthz(url: string): Promise<boolean> {
  const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(3_000) });
  if (res.status === 200) return true;
  throw new Error(`/healthz answered ${res.status}`);
}

interface Watch {
  onCrash(name: string, run: { lastLines(count?: number): string[] }, how: string): void;
  stopping(): boolean;
}

function launch(
  p: Planned,
  env: NodeJS.ProcessEnv,
  logDir: string,
  watch: Watch,
  signal: AbortSignal,
): Promise<Started> {
  const url = `http://127.0.0.1:${p.port}`;
  const prefix = prefixFor(p.name);
  const spec: ProcessSpec = {
    name: p.name,
    command: process.execPath,
    args: ['--enable-source-maps', '--disable-warning=TimeoutNegativeWarning', `dist/${p.entry}.js`],
    cwd: path.join(REPO_ROOT, p.runnable.dir),
    env: {
      ...env,
      ...(p.kind === 'worker' ? { WORKER_PORT: String(p.port) } : { PORT: String(p.port) }),
      ...(p.internal ? { INTERNAL_PORT: String(p.internal.port) } : {}),
      OTEL_SERVICE_NAME: p.name, // its name in traces (--tracing)
    },
    logFile: path.join(logDir, `${p.name}.log`),
    log: (line) => {
      if (!line.startsWith(prefix)) return out(line);
      const raw = line.slice(prefix.length);
      if (worthShowing(raw, verbose)) out(prefix + readableLine(raw, !!tty));
    },
    // With an internal port, /readyz answers there; the public port must take connections too
    // (its /healthz) before the product is announced.
    ready: async () =>
      p.internal
        ? (await readyz(`http://127.0.0.1:${p.internal.port}`)) && (await healthz(url))
        : readyz(url),
    readyTimeoutMs: READY_TIMEOUT_MS,
    probeIntervalMs: 200,
    stopGraceMs: STOP_GRACE_MS,
    signal,
  };
  return superviseProcess(spec, {
    announce: (line) => out(line),
    onCrash: (run, how) => watch.onCrash(p.name, run, how),
    stopping: watch.stopping,
  }).then((proc) => ({ ...p, proc, url }));
}

/** Starts and stops everything; lives in its own session (see the top of the file). */
class Supervisor {
  private infra: InfraHandle | undefined;
  private tracing: TracingViewer | undefined;
  private readonly started: Started[] = [];
  private stopReason: string | undefined;
  private up = false;
  /** Aborts the starts still under way once the infrastructure is up (see requestStop). */
  private readonly interrupt = new AbortController();

  constructor(private readonly t0: number) {}

  /** The first stop request wins; later ones are the front's business (it force-kills). */
  requestStop(reason: string): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    if (this.up) {
      void this.stopAll().then((clean) => process.exit(clean ? 0 : 1));
      return;
    }
    out(`\n■ ${reason}: interrupting start-up`);
    if (this.infra) {
      // Services, workers or the gateway are starting: each pending start stops its child and fails,
      // and run() then stops the rest a layer at a time — the infrastructure after them, as after
      // start-up (all at once, services lost Mongo and Kafka while still shutting down).
      this.interrupt.abort();
      return;
    }
    // The infrastructure and the builds are starting, nothing depends on them yet, and their children
    // are not ours to stop until their starts return: everything in our session gets SIGTERM; the
    // pending starts then fail and run() cleans up.
    try {
      process.kill(-process.pid, 'SIGTERM');
    } catch {
      // not a group leader (started by hand): run() still stops what it knows
    }
  }

  interruptedBy(): string | undefined {
    return this.up ? undefined : this.stopReason;
  }

  /** A crash: its last lines, loudly; restart.ts then says whether it is restarted or given up. */
  private readonly watcher: Watch = {
    onCrash: (name, run, how) => {
      const bar = '!'.repeat(72);
      out(`\n${bar}\n✗ ${bold(name)} ${how} — the other processes keep running.`);
      out(`--- its last lines (full log in ${path.join(logDir(), `${name}.log`)}) ---`);
      for (const line of run.lastLines(25)) out(`  ${readableLine(line, !!tty)}`);
      out(bar);
    },
    stopping: () => this.stopReason !== undefined,
  };

  private checkInterrupted(): void {
    if (this.stopReason) throw new Error(`start-up interrupted (${this.stopReason})`);
  }

  /** A start that an interruption ended, in one line ('· user stopped before it was ready (…)'). */
  private reportInterrupted(failure: string): void {
    if (this.stopReason) out(`· ${failure.split('\n')[0]}`);
  }

  /** Starts everything; throws (after stopping what started) on any failure. */
  async run(): Promise<void> {
    const offset = portOffset();
    const planned = plan(offset);
    await assertPortsFree(planned);
    const logs = logDir();
    rmSync(logs, { recursive: true, force: true });
    mkdirSync(logs, { recursive: true });

    const buildStarted = Date.now();
    const build = Promise.all(RUNNABLES.map((r) => buildRunnable(r.dir)))
      .then(() => out(`✓ build      ${RUNNABLES.length} runnables with esbuild ${seconds(buildStarted)}`))
      // The frontends after the services (webpack is CPU-heavy); a build whose inputs did not change is reused.
      .then(async () => {
        const frontendsStarted = Date.now();
        const results = await buildFrontends();
        out(`✓ frontends  ${describeFrontendBuilds(results)} ${seconds(frontendsStarted)}`);
      });
    // Built while the infrastructure starts; a build error still waits for it so it can be stopped.
    const [infra, built] = await Promise.allSettled([
      startInfra({ mode: 'dev', log: infraLog(logs), paymentsWebhookUrl: paymentsWebhookUrl(planned) }),
      build,
    ]);
    if (infra.status === 'rejected') throw infra.reason;
    this.infra = infra.value;
    const { endpoints } = infra.value;
    if (built.status === 'rejected') throw new Error(`build failed: ${(built.reason as Error).message}`);
    this.checkInterrupted();

    const gatewayPlans = planned.filter((p) => p.kind === 'gateway');
    const env = serviceEnv(endpoints, (gatewayPlans[0] as Planned).port, offset);
    // --tracing: Zipkin starts beside the services (env points them at it first).
    const viewer = tracingRequested()
      ? startTracingViewer(env, { offset, logDir: logs, log: out, signal: this.interrupt.signal }).then(
          (v) => {
            this.tracing = v;
            out(`✓ zipkin     ${v.url} ready (traces)`);
          },
          (err: Error) => err.message,
        )
      : undefined;
    const servicesStarted = Date.now();
    // One instance of each at a time: sixteen processes starting at once on two cores outran the
    // readiness wait (DECOR_INSTANCES=2 on a busy machine); the first instances are the usual start.
    const failures: string[] = [];
    for (let k = 1; k <= instanceCount() && failures.length === 0; k++) {
      const results = await Promise.allSettled(
        planned
          .filter((p) => p.kind !== 'gateway' && p.instance === k)
          .map((p) =>
            launch(p, env, logs, this.watcher, this.interrupt.signal).then((s) => {
              this.started.push(s);
              out(`✓ ${s.name.padEnd(10)} ${s.url} ready ${seconds(servicesStarted)}`);
              return s;
            }),
          ),
      );
      failures.push(
        ...results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : [])),
      );
      if (this.stopReason) break;
    }
    const tracingFailure = await viewer;
    if (tracingFailure) failures.push(`zipkin: ${tracingFailure}`);
    for (const failure of failures) this.reportInterrupted(failure);
    if (failures.length > 0) throw new Error(failures.join('\n'));
    this.checkInterrupted();

    // Every instance of a service, in instance order (the gateway takes them in turn).
    const urls: Record<string, string> = {};
    for (const p of planned) {
      const s = this.started.find((x) => x.name === p.name);
      if (s?.kind === 'service' && s.runnable.urlEnv)
        urls[s.runnable.urlEnv] = [urls[s.runnable.urlEnv], s.url].filter(Boolean).join(',');
    }
    const frontends = path.join(REPO_ROOT, 'frontends');
    const gateways = await Promise.all(
      gatewayPlans.map((p) =>
        launch(
          p,
          { ...env, ...urls, FRONTENDS_DIR: frontends },
          logs,
          this.watcher,
          this.interrupt.signal,
        ).then((g) => {
          this.started.push(g);
          out(`✓ ${g.name.padEnd(10)} ${g.url} ready ${seconds(servicesStarted)}`);
          return g;
        }),
      ),
    ).catch((err: Error) => {
      this.reportInterrupted(err.message);
      throw err;
    });
    const gateway = gateways[0] as Started;
    this.checkInterrupted();
    // A fresh installation's demo orders (availability has something to show); never fails the start.
    const demoStarted = Date.now();
    await seedDemoOrders(gateway.url, process.env, this.interrupt.signal).then(
      (n) => n > 0 && out(`✓ demo       ${n} orders booked over the coming weeks ${seconds(demoStarted)}`),
      (err: Error) => this.stopReason || out(`! demo orders not booked: ${err.message}`),
    );
    this.checkInterrupted();
    this.up = true;
    this.printReady(gateway.url, endpoints);
  }

  /** Where everything is; the product's address, the mail inbox and the logins last, as the terminal ends. */
  private printReady(gatewayUrl: string, e: InfraEndpoints): void {
    const env = process.env;
    const line = '─'.repeat(72);
    const row = (name: string, address: string, pid = '') =>
      `   ${name.padEnd(20)} ${address.padEnd(36)} ${pid}`;
    const order = [...this.started].sort((a, b) =>
      a.kind === 'gateway' ? -1 : b.kind === 'gateway' ? 1 : a.port - b.port,
    );
    out();
    out(line);
    out(row('process', 'address', 'pid'));
    for (const s of order) out(row(s.name, s.url, String(s.proc.current.pid)));
    out(row('kafka', e.kafkaBrokers.join(',')));
    out(row('mongo', e.mongoUrl));
    out(row('redis', e.redisUrl));
    out(row('s3', `${e.s3.endpoint} (bucket ${e.s3.bucket})`));
    out(row('mail', `smtp://${e.smtp.host}:${e.smtp.port}, ${e.mailApiUrl}`));
    out(row('qbo', `${e.qbo.url} (QuickBooks emulator)`));
    const stripe = process.env.STRIPE_SECRET_KEY ? '; the services use Stripe (STRIPE_SECRET_KEY)' : '';
    out(row('payments', `${e.payments.url} (payments emulator${stripe})`));
    if (this.tracing) out(row('zipkin', `${this.tracing.url} (traces)`));
    out(`   logs: ${logDir()}/<process>.log`);
    out(
      verbose
        ? '         (shown here too: --verbose)'
        : '         (requests and other info lines; `npm start -- --verbose` shows them here too)',
    );
    out();
    out(`   Restarts: ${describePolicy()};`);
    out('             a stray promise rejection is logged and the service keeps running.');
    out();
    out(
      ` ${bold('Decor platform is running')} — ready in ${seconds(this.t0)}. ${bold('Ctrl-C stops everything.')}`,
    );
    out();
    out(`   API docs     ${gatewayUrl}/api/docs`);
    const internal = this.started.find((s) => s.internal)?.internal;
    if (internal)
      out(`   Probes       http://127.0.0.1:${internal.port}/readyz and /metrics (internal port)`);
    out(
      process.env.QBO_API_BASE_URL
        ? `   QuickBooks   ${process.env.QBO_API_BASE_URL} (from QBO_API_BASE_URL)`
        : `   QuickBooks   ${e.qbo.url} (emulator, demo company ${e.qbo.realmId})`,
    );
    out(`   Mail inbox   ${e.mailApiUrl}`);
    if (this.tracing) out(`   Traces       ${this.tracing.url} (search a log line's trace_id)`);
    out(`   Product      ${bold(gatewayUrl)}`);
    out();
    out(`   Demo logins (password ${env.DEMO_PASSWORD || 'demo1234'})`);
    out(`     customer   ${env.DEMO_CUSTOMER_EMAIL || 'customer@decor.example'}`);
    out(`     staff      ${env.DEMO_ADMIN_EMAIL || 'staff@decor.example'}`);
    out(`     owner      ${env.DEMO_SUPERADMIN_EMAIL || 'owner@decor.example'}`);
    out(line);
  }

  /** Gateway, then services and workers, then the infrastructure; true if each stopped cleanly. */
  async stopAll(): Promise<boolean> {
    const t = Date.now();
    if (!this.infra && this.started.length === 0) return true;
    out(`\n■ stopping everything (${this.stopReason ?? 'start-up failed'})`);
    const layer = async (kinds: Planned['kind'][]) => {
      const stops = this.started.filter((s) => kinds.includes(s.kind)).map((s) => this.stopOne(s));
      return (await Promise.all(stops)).every(Boolean);
    };
    let clean = await layer(['gateway']);
    clean = (await layer(['service', 'worker'])) && clean;
    if (this.tracing) {
      await this.tracing.process.stop();
      out('✓ zipkin stopped');
    }
    if (this.infra) {
      const ti = Date.now();
      out('… stopping the infrastructure (kafka, mongo, s3, mail, qbo, payments)');
      try {
        await this.infra.stop();
        out(`✓ infrastructure stopped ${seconds(ti)}`);
      } catch (err) {
        clean = false;
        out(`✗ infrastructure did not stop cleanly: ${(err as Error).message}`);
      }
    }
    out(clean ? `■ all stopped ${seconds(t)}` : `■ stopped ${seconds(t)}, not all cleanly (see above)`);
    return clean;
  }

  private async stopOne(s: Started): Promise<boolean> {
    const t = Date.now();
    if (s.proc.gone) {
      out(`· ${s.name} had already exited (given up on after repeated crashes)`);
      return false;
    }
    await s.proc.stop();
    const { code, signal } = await s.proc.current.exited;
    if (code === 0) {
      out(`✓ ${s.name} stopped ${seconds(t)}`);
      return true;
    }
    out(`✗ ${s.name} ${signal ? `was killed (${signal})` : `exited with code ${code}`} while stopping`);
    for (const l of s.proc.current.lastLines(10)) out(`  ${readableLine(l, !!tty)}`);
    return false;
  }
}

/**
 * The infrastructure's own status lines ('✓ kafka …') go to the terminal; its servers' output (Mongo's
 * notes on indexes it ignores, a client's refused command) to <logs>/<server>.log, and with --verbose
 * to the terminal too. A server that fails to start still shows its last lines in the error.
 */
function infraLog(logs: string): (line: string) => void {
  const servers = INFRA_SERVERS.map((name) => ({ name, prefix: prefixFor(name) }));
  return (line) => {
    const server = servers.find((s) => line.startsWith(s.prefix));
    if (!server) return out(line);
    appendFileSync(path.join(logs, `${server.name}.log`), `${line.slice(server.prefix.length)}\n`);
    if (verbose) out(line);
  };
}

function logDir(): string {
  return path.join(process.env.DECOR_DATA_DIR ?? path.join(INFRA_DIR, '.data'), 'logs');
}

async function supervise(): Promise<void> {
  const t0 = Date.now();
  const supervisor = new Supervisor(t0);
  process.on('SIGINT', () => supervisor.requestStop('Ctrl-C'));
  process.on('SIGTERM', () => supervisor.requestStop('SIGTERM'));
  // The front relays signals; if it is gone (killed -9, terminal closed), nobody else would stop us.
  const front = process.ppid;
  setInterval(() => {
    if (process.ppid !== front) supervisor.requestStop('the npm start process is gone');
  }, 1_000).unref();

  try {
    await supervisor.run();
  } catch (err) {
    const interrupted = supervisor.interruptedBy();
    out(
      `\n✗ ${bold('npm start failed')}: ${interrupted ? `interrupted (${interrupted})` : (err as Error).message}`,
    );
    await supervisor.stopAll();
    process.exit(interrupted ? 130 : 1);
  }
}

if (require.main === module) void supervise();
