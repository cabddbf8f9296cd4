/**
 * `npm start` end to end, as a person runs it: a second copy of the whole product (own data dir, own
 * infrastructure ports, service ports shifted by DECOR_PORT_OFFSET, own Redis key prefix) so it runs
 * beside the test infrastructure and a developer's running `npm start`. Through the printed URLs:
 * sign-in, session, a reset e-mail in the printed inbox; Ctrl-C stops everything in order and leaves
 * no process behind; a second start on the same data finds the same users and the same inbox; Ctrl-C
 * while the services start stops them before the infrastructure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  assertPortFree,
  belowRestartRanges,
  DEV_PORTS,
  freePort,
  restartPortRange,
  testEndpoints,
} from '@decor/stack';
import { descendants, type Proc, readProc } from '../src/procs';
import { RUNNABLES } from '../src/runnables';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const CUSTOMER = 'customer@decor.example';
const PASSWORD = 'demo1234';
const REDIS_PREFIX = `t${randomBytes(4).toString('hex')}`;

interface Copy {
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  gatewayUrl: string;
  inboxUrl: string;
}

/**
 * The copy's ports, all below the range other test processes draw from: the three starts bind the
 * same ports again, and a port another file's stack drew between two starts (it happened once: "port
 * … (kafka) is already in use") would fail the next one. The infrastructure takes the copy's own
 * restart range (restartPortRange); DECOR_PORT_OFFSET moves every service, worker and gateway default
 * below every restart range, from 10,000 up.
 */
async function copyPorts(infraCount: number): Promise<{ infra: number[]; offset: number }> {
  const range = restartPortRange('start-copy');
  const bases = RUNNABLES.flatMap((r) => [r.port, ...(r.workerPort ? [r.workerPort] : [])]);
  const lowest = belowRestartRanges();
  const [minOffset, maxOffset] = [10_000 - Math.min(...bases), lowest - 1 - Math.max(...bases)];
  if (maxOffset < minOffset) throw new Error(`no room for the copy's ports below ${lowest} on this machine`);
  const infra: number[] = [];
  for (let i = 0; i < infraCount; i++) infra.push(await freePort(range));
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = minOffset + Math.floor(Math.random() * (maxOffset - minOffset + 1));
    const checks = await Promise.allSettled(bases.map((b) => assertPortFree(b + offset, 'probe')));
    if (checks.every((c) => c.status === 'fulfilled')) return { infra, offset };
  }
  throw new Error('no free port offset found');
}

async function copyEnv(dataDir: string): Promise<Record<string, string>> {
  // Every infrastructure port npm start reads from env; else its defaults, taken while a developer's runs.
  const names = Object.values(DEV_PORTS).map((p) => p.env);
  const ports = await copyPorts(names.length);
  return {
    ...Object.fromEntries(names.map((n, i) => [n, String(ports.infra[i])])),
    DECOR_DATA_DIR: dataDir,
    DECOR_PORT_OFFSET: String(ports.offset),
    REDIS_URL: testEndpoints().redisUrl,
    REDIS_PREFIX,
  };
}

/**
 * How long a start may take to print a line. Alone it takes 20-60 s; in CI it starts beside three
 * browser files' stacks on the same two cores, and once took more than 150 s. (The tests with a start
 * in them are given 310 s: this, then their checks and a stop.)
 */
const LINE_WAIT_MS = 240_000;

type Launched = Omit<Copy, 'gatewayUrl' | 'inboxUrl'> & {
  /** Resolves at the first output line matching `pattern` (rejects if start.ts exits first or in LINE_WAIT_MS). */
  line(pattern: RegExp): Promise<string>;
  tail(): string;
};

/** Runs start.ts like `npm start` does. */
function launchCopy(env: Record<string, string>): Launched {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/cli/src/start.ts'], {
    cwd: REPO_ROOT,
    // Without the test flag jest's setup sets: the copy runs on its installation's own secrets, as for a person.
    env: { ...process.env, DECOR_ALLOW_DEV_SECRETS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiting = new Set<(line: string) => void>();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const tail = () => lines.slice(-40).join('\n');
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line ${pattern} within ${LINE_WAIT_MS / 1000} s:\n${tail()}`)),
        LINE_WAIT_MS,
      );
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`start.ts exited (${code ?? signal}) before a line ${pattern}:\n${tail()}`));
      });
      const check = (l: string) => {
        if (!pattern.test(l)) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve(l);
      };
      waiting.add(check);
    });
  const onLine = (l: string) => {
    lines.push(l);
    for (const check of [...waiting]) check(l);
  };
  if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
  if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);
  return { child, lines, exited, line, tail };
}

/** Kills a copy that is still running and everything it started (a failed test leaves no ports taken). */
function killCopy(child: ChildProcess): void {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  for (const p of descendants(child.pid)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  child.kill('SIGKILL');
}

/** Runs start.ts like `npm start` does and resolves once it printed the ready block. */
async function startCopy(env: Record<string, string>): Promise<Copy> {
  const { child, lines, exited, line, tail } = launchCopy(env);
  // The logins are the ready block's last lines (the product's address and the inbox just above).
  // A start that never gets there is killed: left running, it held every port the next start needs.
  await line(/^\s+owner\s+\S+@\S+$/).catch((err: unknown) => {
    killCopy(child);
    throw err;
  });
  const find = (label: string) =>
    lines.map((l) => new RegExp(`^\\s+${label}\\s+(http\\S+)`).exec(l)?.[1]).find(Boolean);
  const gatewayUrl = find('Product');
  const inboxUrl = find('Mail inbox');
  if (!gatewayUrl || !inboxUrl) throw new Error(`no Product / Mail inbox URL printed:\n${tail()}`);
  return { child, lines, exited, gatewayUrl, inboxUrl };
}

/** The program, not comm: Node names its main thread 'MainThread'. */
const program = (p: Proc) => path.basename(p.argv[0] ?? '');

/** Same pid and same start time (not a reused pid), and not a zombie. */
function stillAlive(p: Proc): boolean {
  const now = readProc(p.pid);
  return !!now && now.startTime === p.startTime && now.state !== 'Z';
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** One Redis command (RESP) without a client library: deletes this file's BullMQ keys. */
function deleteRedisKeys(url: string, pattern: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const script =
    "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) n = n + 1 end return n";
  const parts = ['EVAL', script, '0', pattern];
  const payload = `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.endsWith('\r\n')) socket.end();
    });
    socket.once('close', () => resolve(reply));
    socket.once('error', reject);
    socket.connect(Number(port) || 6379, hostname, () => socket.write(payload));
  });
}

async function signIn(gatewayUrl: string): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${gatewayUrl}/api/auth/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: CUSTOMER, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const { result } = (await res.json()) as { result: { token: string; user: { id: string } } };
  expect(result.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  return { token: result.token, userId: result.user.id };
}

/** The reset e-mails to the demo customer (the demo orders' e-mails go to that address too). */
async function resetMails(inboxUrl: string): Promise<{ ID: string; Subject: string }[]> {
  const res = await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:${CUSTOMER}`)}`);
  const { messages } = (await res.json()) as { messages: { ID: string; Subject: string }[] };
  return messages.filter((m) => /^Reset your .* password/.test(m.Subject));
}

async function stopWithCtrlC(copy: Copy): Promise<void> {
  copy.child.kill('SIGINT');
  const { code, signal } = await within(copy.exited, 30_000, 'exit after SIGINT');
  // A failed stop shows its own lines (which process did not stop cleanly, and its last words).
  const stop = copy.lines.slice(copy.lines.findLastIndex((l) => l.includes('■ stopping everything')));
  expect({ code, signal, stop: code === 0 ? [] : stop }).toEqual({ code: 0, signal: null, stop: [] });
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'decor-start-test-'));
/** A process's log file in the running copy (raw pino lines; each start begins them afresh). */
const logOf = (name: string) => readFileSync(path.join(dataDir, 'logs', `${name}.log`), 'utf8');
/**
 * The reset e-mail's way through the copy's logs, for a test that did not find it: the user service
 * (request, outbox relay), the notification service (consumer, queue) and its worker (SMTP), each's
 * warnings and errors and lines about the reset or the e-mail, with their times.
 */
function resetTrail(): string {
  const wanted = /reset|e-?mail|smtp|relay|rebalanc|group/i;
  return ['user', 'notification', 'notification-worker']
    .flatMap((name) => {
      let text = '';
      try {
        text = logOf(name);
      } catch (err) {
        return [`[${name}] no log: ${(err as Error).message}`];
      }
      return text
        .split('\n')
        .filter((l) => /"level":([4-6]\d)/.test(l) || wanted.test(l))
        .slice(-40)
        .map((l) => `[${name}] ${l.slice(0, 400)}`);
    })
    .join('\n');
}
let env: Record<string, string>;
let first: Copy | undefined;
let second: Copy | undefined;
let third: Launched | undefined;
let firstRun: { userId: string; mailIds: string[] } | undefined;

beforeAll(async () => {
  env = await copyEnv(dataDir);
});

afterAll(async () => {
  for (const copy of [first, second, third]) if (copy) killCopy(copy.child);
  rmSync(dataDir, { recursive: true, force: true });
  await deleteRedisKeys(testEndpoints().redisUrl, `${REDIS_PREFIX}:*`);
}, 30_000);

describe('npm start', () => {
  test('starts infrastructure, services, workers and gateway, and prints where they are', async () => {
    first = await startCopy(env);
    const text = first.lines.join('\n');
    expect(first.gatewayUrl).toBe(`http://127.0.0.1:${8080 + Number(env.DECOR_PORT_OFFSET)}`);
    expect(first.inboxUrl).toBe(`http://127.0.0.1:${env.MAIL_API_PORT}`);
    expect(text).toContain(`API docs     ${first.gatewayUrl}/api/docs`);
    expect(text).toMatch(/customer\s+customer@decor\.example/);
    // An empty database: the user service seeded the demo accounts (its info lines are in its log file).
    expect(logOf('user')).toContain('demo logins (password');
    // Quiet (issue 29): a line per process as it is ready, no info line of a process (its requests are
    // in its log file) and no ERROR; the address, the inbox and the logins last.
    for (const name of [...RUNNABLES.map((r) => r.name), 'notification-worker']) {
      expect(first.lines.filter((l) => new RegExp(`^✓ ${name}\\s+http://\\S+ ready`).test(l))).toHaveLength(
        1,
      );
    }
    expect(
      first.lines.filter((l) => /^\[[\w-]+\] (\S+ (TRACE|DEBUG|INFO |ERROR|FATAL)|.*\bERROR\b)/.test(l)),
    ).toEqual([]);
    expect(logOf('gateway')).toContain('"msg":"request completed"');
    const product = first.lines.findIndex((l) => /^\s+Product\s+http/.test(l));
    expect(first.lines.slice(product - 1, product + 6).map((l) => l.trim().split(/\s+/)[0])).toEqual([
      'Mail',
      'Product',
      '',
      'Demo',
      'customer',
      'staff',
      'owner',
    ]);
    expect(text).toMatch(/✓ demo\s+3 orders booked over the coming weeks/);
    // The payments emulator beside the QuickBooks one: its row, and its page of payments answers.
    const payments = /^\s+payments\s+(http:\/\/\S+) \(payments emulator\)/m.exec(text)?.[1];
    expect(payments).toBe(`http://127.0.0.1:${env.PAYMENTS_EMULATOR_PORT}`);
    expect((await fetch(`${payments}/`)).status).toBe(200);
    const docs = await fetch(`${first.gatewayUrl}/api/docs/json`);
    expect(docs.status).toBe(200);
  }, 310_000);

  test('through the printed URLs: sign-in, session, and a reset e-mail in the printed inbox', async () => {
    if (!first) throw new Error('not started');
    const { token, userId } = await signIn(first.gatewayUrl);
    const session = await fetch(`${first.gatewayUrl}/api/auth/jwt`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { result: { email: string; id: string } }).result).toMatchObject({
      email: CUSTOMER,
      id: userId,
    });
    // The demo orders are booked: every Mirrored Bar Front is taken on the first one's day.
    const day = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const check = await fetch(`${first.gatewayUrl}/api/availability?from=${day}&id=BAR-FR-001`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await check.json()) as { result: unknown[] }).result).toEqual([
      { id: 'BAR-FR-001', hint: 'Not available', available: 0, day },
    ]);

    const reset = await fetch(`${first.gatewayUrl}/api/send/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: CUSTOMER }),
    });
    expect(reset.status).toBe(200);
    // Not a product promise: on a loaded machine (CI's) the relay's send to Kafka and the worker's SMTP
    // attempt may each be retried (the e-mail's backoff starts at 5 s), so a minute and a half.
    const deadline = Date.now() + 90_000;
    let mails = await resetMails(first.inboxUrl);
    while (mails.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      mails = await resetMails(first.inboxUrl);
    }
    if (mails.length === 0) {
      const inbox = await fetch(`${first.inboxUrl}/api/v1/messages`).then((r) => r.json());
      const subjects = (inbox as { messages: { Subject: string }[] }).messages.map((m) => m.Subject);
      throw new Error(
        `no reset e-mail within 90 s; the inbox: ${JSON.stringify(subjects)}; its way:\n${resetTrail()}`,
      );
    }
    expect(mails).toHaveLength(1);
    expect(mails[0]?.Subject).toMatch(/Reset your .* password/);
    firstRun = { userId, mailIds: mails.map((m) => m.ID) };
  }, 120_000);

  test('a service killed with SIGKILL is restarted and answers again', async () => {
    if (!first) throw new Error('not started');
    const text = first.lines.join('\n');
    expect(text).toContain('Restarts: a process that dies is restarted (after 1 s, 2 s, 4 s');
    const row = /^\s+cart\s+(http:\/\/\S+)\s+(\d+)\s*$/m.exec(text);
    if (!row?.[1] || !row[2]) throw new Error(`no cart row printed:\n${text}`);
    const [, cartUrl, pid] = row;
    process.kill(Number(pid), 'SIGKILL');
    const copy = first;
    const restarted = await within(
      (async () => {
        for (;;) {
          const line = copy.lines.find((l) => l.startsWith('↻ cart restarted'));
          if (line) return line;
          await new Promise((r) => setTimeout(r, 200));
        }
      })(),
      60_000,
      'cart restarted',
    );
    expect(first.lines).toContain(
      '✗ cart was killed by SIGKILL: restarting it in 1 s (crash 1; given up at 5 within 5 min)',
    );
    expect(restarted).not.toContain(`pid ${pid})`);
    expect((await fetch(`${cartUrl}/readyz`)).status).toBe(200);
    // Through the gateway too: a customer's session reads its carts again.
    const { token } = await signIn(first.gatewayUrl);
    const carts = await fetch(`${first.gatewayUrl}/api/cart`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(carts.status).toBe(200);
  }, 90_000);

  test('Ctrl-C stops gateway, then services and workers, then infrastructure; no process is left', async () => {
    if (!first?.child.pid) throw new Error('not started');
    const procs = descendants(first.child.pid);
    await stopWithCtrlC(first);
    // tsx's esbuild helpers exit on their own once their parent's pipe closes: allow them a moment.
    const deadline = Date.now() + 3_000;
    while (procs.some(stillAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(procs.filter(stillAlive)).toEqual([]);
    // What was checked: Kafka and Mongo, and supervisor, s3, mail, 6 services, worker, gateway.
    expect(procs.filter((p) => program(p) === 'java').length).toBeGreaterThanOrEqual(2);
    expect(procs.filter((p) => program(p) === 'node').length).toBeGreaterThanOrEqual(11);
    const at = (text: string) => first?.lines.findIndex((l) => l.includes(text)) ?? -1;
    expect(at('✓ gateway stopped')).toBeGreaterThan(at('■ stopping everything'));
    expect(at('✓ user stopped')).toBeGreaterThan(at('✓ gateway stopped'));
    expect(at('✓ notification-worker stopped')).toBeGreaterThan(at('✓ gateway stopped'));
    expect(at('✓ infrastructure stopped')).toBeGreaterThan(at('✓ notification stopped'));
    expect(at('■ all stopped')).toBeGreaterThan(at('✓ infrastructure stopped'));
  }, 45_000);

  test('a second start on the same data finds the same accounts and the same inbox', async () => {
    if (!firstRun) throw new Error('the first run did not finish');
    second = await startCopy(env);
    // The users survived in Mongo's H2 file: no second seeding, and the customer keeps its id.
    expect(logOf('user')).not.toContain('demo logins (password');
    const { userId } = await signIn(second.gatewayUrl);
    expect(userId).toBe(firstRun.userId);
    // The mail catcher kept its messages on disk.
    expect((await resetMails(second.inboxUrl)).map((m) => m.ID)).toEqual(firstRun.mailIds);
    await stopWithCtrlC(second);
  }, 310_000);

  test('Ctrl-C while the services start: the starts under way stop their processes, the rest stops layer by layer, and the infrastructure outlives every service', async () => {
    third = launchCopy(env);
    // The infrastructure is up and the services are starting (the gateway starts after all of them).
    await third.line(/^✓ [\w-]+\s+http:\/\/127\.0\.0\.1:\d+ ready/);
    const procs = descendants(third.child.pid as number);
    const services = procs.filter(
      (p) => p.argv.includes('dist/main.js') || p.argv.includes('dist/worker.js'),
    );
    const infrastructure = procs.filter(
      (p) => program(p) === 'java' || p.argv.some((a) => a.endsWith('serve.ts')),
    );
    // When each process went, seen from /proc every 20 ms.
    const goneAt = new Map<number, number>();
    const watch = setInterval(() => {
      // One time per look: the processes found gone in the same look went together.
      const now = Date.now();
      for (const p of procs) if (!goneAt.has(p.pid) && !stillAlive(p)) goneAt.set(p.pid, now);
    }, 20);
    try {
      third.child.kill('SIGINT');
      const { code } = await within(third.exited, 60_000, 'exit after SIGINT');
      expect({ code, tail: code === 130 ? '' : third.tail() }).toEqual({ code: 130, tail: '' });
      const deadline = Date.now() + 3_000;
      while (procs.some(stillAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(procs.filter(stillAlive)).toEqual([]);
    } finally {
      clearInterval(watch);
    }
    const { lines } = third;
    expect(lines).toContain('■ Ctrl-C: interrupting start-up');
    // Kafka, Mongo, S3, mail and QuickBooks were still there while every service and worker shut down
    // (all at once, services lost them mid-shutdown and some ran out of their 20 s).
    expect(services.length).toBeGreaterThanOrEqual(7);
    expect(infrastructure.length).toBeGreaterThanOrEqual(5);
    const lastService = Math.max(...services.map((p) => goneAt.get(p.pid) ?? Number.NaN));
    const firstInfrastructure = Math.min(...infrastructure.map((p) => goneAt.get(p.pid) ?? Number.NaN));
    // Equal: both went between two looks (a loaded run's looks are further apart than 20 ms).
    expect(firstInfrastructure).toBeGreaterThanOrEqual(lastService);
    // Each one the start had under way ('·') and each one already up ('✓') is reported, before the
    // infrastructure's stop; none ran out of time.
    const stops = lines.flatMap((l, i) =>
      /^(✓ (?!infrastructure)[\w-]+ stopped|· [\w-]+ stopped before it was ready)/.test(l) ? [i] : [],
    );
    expect(lines.some((l) => /^✓ (?!infrastructure)[\w-]+ stopped/.test(l))).toBe(true);
    const infraStopped = lines.findIndex((l) => l.startsWith('✓ infrastructure stopped'));
    expect(infraStopped).toBeGreaterThan(Math.max(...stops));
    expect(lines.filter((l) => /while stopping|did not stop within|not finished within/.test(l))).toEqual([]);
    expect(lines.some((l) => l.startsWith('■ all stopped'))).toBe(true);
  }, 310_000);
});
