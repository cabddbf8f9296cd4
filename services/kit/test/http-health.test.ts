import { Writable } from 'node:stream';
import pino from 'pino';
import { createServiceApp, type ServiceApp } from '../src/http';
import { call, listen } from './http-helpers';

let app: ServiceApp;
let base: string;
let kafkaUp = true;

beforeAll(async () => {
  app = await createServiceApp({ name: 'health-test', logLevel: 'silent', readinessTimeoutMs: 300 });
  app.addReadinessCheck('mongo', async () => undefined);
  app.addReadinessCheck('kafka', () => {
    if (!kafkaUp) throw new Error('consumer crashed');
  });
  base = await listen(app);
});
afterAll(() => app.close());

test('/healthz is always 200 ok', async () => {
  expect(await call(base, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
});

test('/readyz is 200 while every check passes', async () => {
  kafkaUp = true;
  const res = await call(base, '/readyz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ready', checks: { mongo: { status: 'up' }, kafka: { status: 'up' } } });
});

test('/readyz is 503 naming what is down', async () => {
  kafkaUp = false;
  const res = await call(base, '/readyz');
  expect(res.status).toBe(503);
  expect(res.body).toEqual({
    message: 'Not ready: kafka (consumer crashed)',
    checks: { mongo: { status: 'up' }, kafka: { status: 'down', reason: 'consumer crashed' } },
  });
  kafkaUp = true;
});

test('a hung check makes /readyz answer 503 quickly instead of hanging', async () => {
  const slow = await createServiceApp({ name: 'slow', logLevel: 'silent', readinessTimeoutMs: 200 });
  slow.addReadinessCheck('redis', () => new Promise(() => undefined));
  slow.addReadinessCheck('flag', () => false);
  try {
    const started = Date.now();
    const res = await call(await listen(slow), '/readyz');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('Not ready: redis (no answer within 200 ms), flag (not ready)');
  } finally {
    await slow.close();
  }
});

test('a check name can be registered once', () => {
  expect(() => app.addReadinessCheck('mongo', () => true)).toThrow(
    "Readiness check 'mongo' is already registered",
  );
});

test("'Not ready' is info while the app starts (never ready yet), a warning once it was ready (issue 29)", async () => {
  const levels: [number, string][] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const { level, msg } = JSON.parse(line) as { level: number; msg: string };
        if (msg.startsWith('Not ready')) levels.push([level, msg]);
      }
      done();
    },
  });
  let up = false;
  const starting = await createServiceApp({ name: 'starting', logger: pino({ level: 'info' }, sink) });
  starting.addReadinessCheck('kafka', () => {
    if (!up) throw new Error('not read yet');
  });
  try {
    const url = await listen(starting);
    expect((await call(url, '/readyz')).status).toBe(503);
    up = true;
    expect((await call(url, '/readyz')).status).toBe(200);
    up = false;
    expect((await call(url, '/readyz')).status).toBe(503);
  } finally {
    await starting.close();
  }
  expect(levels).toEqual([
    [30, 'Not ready: kafka (not read yet)'],
    [40, 'Not ready: kafka (not read yet)'],
  ]);
});
