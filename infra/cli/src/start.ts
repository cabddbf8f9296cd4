/**
 * `npm start`: the whole product on this machine — see supervisor.ts for what starts and in which order.
 *
 * Env (all optional):
 *   DECOR_PORT_OFFSET   added to every service/worker/gateway default port (a second copy beside)
 *   USER_PORT … GATEWAY_PORT, GATEWAY_INTERNAL_PORT, NOTIFICATION_WORKER_PORT …   pin one port (see runnables.ts)
 *   DECOR_INSTANCES     instances of each service, worker and the gateway (default 1); instance k
 *                       listens on <PORT_ENV>_k, default its port + 100·(k-1) (supervisor.ts)
 *   KAFKA_PORT, KAFKA_CONTROLLER_PORT, MONGO_PORT, S3_PORT, SMTP_PORT, MAIL_API_PORT, REDIS_URL,
 *   DECOR_DATA_DIR      the infrastructure (see infra/README.md); logs go to <data dir>/logs
 *   REDIS_PREFIX        BullMQ key prefix (default 'decor', or 'decor-<offset>' with an offset, so two
 *                       copies on the machine's one Redis never take each other's jobs)
 *   JWT_SECRET          default: this installation's own, made on the first start and kept in
 *                       <data dir>/jwt-secret (installation-secret.ts)
 *   QBO_TOKEN_KEY       default: likewise, <data dir>/qbo-token-key (encrypts the QuickBooks tokens)
 *   LOG_LEVEL, KAFKA_TOPIC_PREFIX, DEMO_*   passed on to the services
 *   HOST                loopback only (127.x, ::1, localhost): the copy has demo logins whose password
 *                       is published, so it refuses to listen on a network (serve one with the
 *                       production build instead, docker-compose.yml)
 *   DECOR_LOG_FORMAT=json   raw pino lines instead of the short readable ones
 *   TRACING=1           or `npm start -- --tracing`: a Zipkin trace viewer beside the rest, every
 *                       process sending it its spans; its address is printed (tracing.ts)
 *
 * The terminal shows one line per process as it is ready, then only warnings and errors, and ends with
 * the product's address, mail inbox and logins; every line of every process (requests included) is in
 * <data dir>/logs/<process>.log. `npm start -- --verbose` shows every line in the terminal too.
 *
 * This process only runs the supervisor and relays signals to it. Why two: Ctrl-C in a terminal
 * signals the whole foreground process group at once, so Kafka would stop while services still
 * flush, and our SIGTERM would reach each service as a second signal (which forces its exit). The
 * supervisor runs in a session of its own, where only our signal arrives, and stops one layer at a
 * time. A second Ctrl-C (a second or more after the first) kills that whole session at once. The
 * supervisor also stops everything by itself when this process disappears.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { installationJwtSecret, installationQboTokenKey } from './installation-secret';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost: what only this machine reaches. */
function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

function main(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) {
    console.error(
      `Node ${process.versions.node} is too old: run \`npm start\` (it uses the Node 24 of the 'node' devDependency).`,
    );
    process.exit(1);
  }
  const host = process.env.HOST?.trim();
  if (host && !isLoopback(host)) {
    console.error(
      `HOST=${host} refused: \`npm start\` runs a development copy whose demo logins have a published password, ` +
        'so it listens on this machine only (127.0.0.1, ::1 or localhost). To serve a network, run the production build (docker-compose.yml).',
    );
    process.exit(1);
  }
  const dataDir = process.env.DECOR_DATA_DIR ?? path.join(REPO_ROOT, 'infra', '.data');
  const JWT_SECRET = process.env.JWT_SECRET || installationJwtSecret(dataDir);
  const QBO_TOKEN_KEY = process.env.QBO_TOKEN_KEY || installationQboTokenKey(dataDir);
  const supervisor = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--disable-warning=TimeoutNegativeWarning',
      path.join(__dirname, 'supervisor.ts'),
      // Its flags (--verbose, --tracing): `npm start -- --verbose`.
      ...process.argv.slice(2),
    ],
    { cwd: REPO_ROOT, stdio: 'inherit', detached: true, env: { ...process.env, JWT_SECRET, QBO_TOKEN_KEY } },
  );
  let firstSignalAt = 0;
  const relay = (signal: NodeJS.Signals) => {
    if (firstSignalAt === 0) {
      firstSignalAt = Date.now();
      supervisor.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
      return;
    }
    // npm and tsx pass the one Ctrl-C on as well: only a later one is a second Ctrl-C.
    if (Date.now() - firstSignalAt < 1_000) return;
    process.stdout.write('\n■ second Ctrl-C: killing every process now (no clean shutdown)\n');
    try {
      if (supervisor.pid) process.kill(-supervisor.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, relay);
  supervisor.on('error', (err) => {
    console.error(`could not start the supervisor: ${err.message}`);
    process.exit(1);
  });
  supervisor.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGKILL' ? 137 : 1)));
}

main();
