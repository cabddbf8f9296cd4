import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

interface Service {
  child: ChildProcess;
  url: string;
  messages: string[];
  entries: Array<{ msg: string; err?: { message?: string; stack?: string } }>;
  /** When each message was logged (pino's `time`); a blocked stdout pipe may deliver lines out of order. */
  times: Map<string, number>;
  exited: Promise<number | null>;
}

/** Starts the fixture in its own Node process and waits for its "listening" line. */
async function start(env: Record<string, string> = {}): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'http-run-fixture.ts')], {
    cwd: path.join(__dirname, '../../..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  const entries: Service['entries'] = [];
  const times = new Map<string, number>();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk) => {
      buffer += String(chunk);
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as Service['entries'][number] & { time: number };
        messages.push(entry.msg);
        entries.push(entry);
        times.set(entry.msg, entry.time);
        const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(entry.msg);
        if (found?.[1]) resolve(found[1]);
      }
    });
    child.on('exit', () => reject(new Error(`fixture exited before listening: ${messages.join(' | ')}`)));
  });
  return { child, url, messages, entries, times, exited };
}

test('SIGTERM: in-flight request finishes, closers run in order, exit 0, one line per step', async () => {
  const service = await start();
  const inFlight = fetch(`${service.url}/slow`).then(async (res) => ({
    status: res.status,
    body: await res.json(),
  }));
  await waitFor(() => service.messages.includes('incoming request'));
  service.child.kill('SIGTERM');

  expect(await inFlight).toEqual({ status: 200, body: { done: true } });
  expect(await service.exited).toBe(0);
  await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
  const steps = [
    'shutting down: no new requests, finishing in-flight ones',
    'shutdown: http server closed',
    'shutdown: consumers closed',
    'shutdown: mongo closed',
    'shutdown complete',
  ];
  const logged = service.messages.filter((m) => m.startsWith('shutting down') || m.startsWith('shutdown'));
  expect([...logged].sort()).toEqual([...steps].sort());
  const when = steps.map((step) => service.times.get(step) ?? Number.NaN);
  expect(when).toEqual([...when].sort((a, b) => a - b));
  // The in-flight request (800 ms) completed before the server reported closed.
  expect(service.times.get('request completed')).toBeLessThanOrEqual(when[1] as number);
});

test('a second signal forces the exit while a closer hangs', async () => {
  const service = await start({ HANG_CLOSER: '1', SHUTDOWN_TIMEOUT_MS: '60000' });
  service.child.kill('SIGTERM');
  await waitFor(() => service.messages.includes('shutdown: http server closed'));
  service.child.kill('SIGINT');
  expect(await service.exited).toBe(1);
  expect(service.messages).toContain('SIGINT again: forcing exit');
});

test('a closer that never finishes cannot hold the process past the budget', async () => {
  const service = await start({ HANG_CLOSER: '1', SHUTDOWN_TIMEOUT_MS: '500' });
  const started = Date.now();
  service.child.kill('SIGTERM');
  expect(await service.exited).toBe(1);
  expect(Date.now() - started).toBeLessThan(3000);
  expect(service.messages).toContain('shutdown: not finished within 500 ms, exiting');
});

test('a stray promise rejection is logged with its error, and the service keeps serving', async () => {
  const service = await start();
  const answer = await fetch(`${service.url}/stray-rejection`);
  expect(answer.status).toBe(200);
  const message = 'unhandled promise rejection (logged; the process keeps running)';
  await waitFor(() => service.messages.includes(message));
  expect(service.entries.find((e) => e.msg === message)?.err).toMatchObject({
    message: 'stray: nobody awaited this',
    stack: expect.stringContaining('http-run-fixture.ts'),
  });
  // Still the same process, still answering.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(service.child.exitCode).toBeNull();
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  service.child.kill('SIGTERM');
  expect(await service.exited).toBe(0);
});

test('the drain: from SIGTERM /readyz answers 503 while requests are still served, each closing its connection, then the port closes', async () => {
  const service = await start({ DRAIN_DELAY_MS: '1500' });
  expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  service.child.kill('SIGTERM');
  await waitFor(() => service.messages.includes('shutting down: not ready, serving until the port closes'));
  const ready = await fetch(`${service.url}/readyz`);
  expect(ready.status).toBe(503);
  expect(JSON.stringify(await ready.json())).toContain('shutting down');
  const served = await fetch(`${service.url}/slow`);
  expect(served.status).toBe(200);
  expect(served.headers.get('connection')).toBe('close');
  expect(await service.exited).toBe(0);
  await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
});

async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
