import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

interface Service {
  child: ChildProcess;
  url: string;
  messages: string[];
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
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk) => {
      buffer += String(chunk);
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as { msg: string };
        messages.push(entry.msg);
        const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(entry.msg);
        if (found?.[1]) resolve(found[1]);
      }
    });
    child.on('exit', () => reject(new Error(`fixture exited before listening: ${messages.join(' | ')}`)));
  });
  return { child, url, messages, exited };
}

test('SIGTERM: in-flight request finishes, closers run in order, exit 0, one line per step', async () => {
  const service = await start();
  const inFlight = fetch(`${service.url}/slow`).then(async (res) => ({
    status: res.status,
    body: await res.json(),
  }));
  await new Promise((resolve) => setTimeout(resolve, 200));
  service.child.kill('SIGTERM');

  expect(await inFlight).toEqual({ status: 200, body: { done: true } });
  expect(await service.exited).toBe(0);
  await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
  const steps = service.messages.filter((m) => m.startsWith('shutting down') || m.startsWith('shutdown'));
  expect(steps).toEqual([
    'shutting down: no new requests, finishing in-flight ones',
    'shutdown: http server closed',
    'shutdown: consumers closed',
    'shutdown: mongo closed',
    'shutdown complete',
  ]);
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

async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
