import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { type Connection, type Model, Schema } from 'mongoose';
import pino from 'pino';
import { createServiceApp, type ServiceApp } from '../src/http';
import { connectMongo, mongoReadinessCheck } from '../src/mongo';
import { tcpRelay } from '../src/tcp-relay';
import { testEndpoints } from '../src/testing';
import { call, listen } from './http-helpers';

interface User {
  email: string;
  displayName: string;
}

const dbName = `t${randomBytes(6).toString('hex')}_kit_conn`;
let conn: Connection;
let Users: Model<User>;
let app: ServiceApp;
let base: string;

beforeAll(async () => {
  conn = await connectMongo(testEndpoints().mongoUrl, dbName);
  Users = conn.model<User>(
    'User',
    new Schema<User>({ email: { type: String, required: true, unique: true }, displayName: String }),
  );
  await Users.init(); // builds the unique index before the duplicate test relies on it

  app = await createServiceApp({ name: 'conn-test', logLevel: 'silent' });
  app.addReadinessCheck('mongo', mongoReadinessCheck(conn));
  app.post(
    '/user',
    { schema: { body: Type.Object({ email: Type.String(), displayName: Type.String() }) } },
    async (request, reply) => {
      const user = await Users.create(request.body);
      return reply.code(201).send({ result: { id: user.id } });
    },
  );
  // Deliberately without objectIdParam: shows the safety net for a route that forgot it.
  app.get('/user/:id', async (request) => ({
    result: await Users.findById((request.params as { id: string }).id),
  }));
  base = await listen(app);
});

afterAll(async () => {
  await app?.close();
  await conn?.dropDatabase();
  await conn?.close();
});

test('readyz is ready with a live connection', async () => {
  const res = await call(base, '/readyz');
  expect(res).toMatchObject({ status: 200, body: { status: 'ready', checks: { mongo: { status: 'up' } } } });
});

test('a duplicate unique key is 409 with a message naming the field, not the value', async () => {
  const first = await call(base, '/user', { json: { email: 'ana@example.com', displayName: 'Ana' } });
  expect(first.status).toBe(201);
  const again = await call(base, '/user', { json: { email: 'ana@example.com', displayName: 'Ana 2' } });
  expect(again).toMatchObject({ status: 409, body: { message: 'A record with this email already exists' } });
});

test('a compound unique index names both fields', async () => {
  const lineSchema = new Schema({ cartId: String, productId: String, qty: Number });
  lineSchema.index({ cartId: 1, productId: 1 }, { unique: true });
  const Lines = conn.model('CartLine', lineSchema);
  await Lines.init();
  const probe = await createServiceApp({ name: 'lines', logLevel: 'silent' });
  probe.post('/line', async (request) => ({ result: await Lines.create(request.body) }));
  try {
    const url = await listen(probe);
    expect((await call(url, '/line', { json: { cartId: 'c1', productId: 'p1', qty: 1 } })).status).toBe(200);
    const again = await call(url, '/line', { json: { cartId: 'c1', productId: 'p1', qty: 2 } });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'A record with this cartId and productId already exists' },
    });
  } finally {
    await probe.close();
  }
});

test('a malformed id reaching mongoose is 400 Invalid id', async () => {
  expect(await call(base, '/user/not-an-id')).toMatchObject({ status: 400, body: { message: 'Invalid id' } });
});

test('a closed connection makes readyz 503 naming mongo', async () => {
  const other = await connectMongo(testEndpoints().mongoUrl, dbName);
  const probe = await createServiceApp({ name: 'probe', logLevel: 'silent' });
  probe.addReadinessCheck('mongo', mongoReadinessCheck(other));
  try {
    const url = await listen(probe);
    expect((await call(url, '/readyz')).status).toBe(200);
    await other.close();
    const res = await call(url, '/readyz');
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/^Not ready: mongo \(not connected/);
  } finally {
    await probe.close();
  }
});

test('an unreachable server fails once the start has waited long enough, with a clear message', async () => {
  const started = Date.now();
  await expect(
    connectMongo('mongodb://127.0.0.1:1', 'nowhere', undefined, {
      serverSelectionTimeoutMS: 500,
      startWithinMs: 1500,
    }),
  ).rejects.toThrow(/^Cannot connect to MongoDB at mongodb:\/\/127\.0\.0\.1:1 \(database nowhere\): /);
  const waited = Date.now() - started;
  expect(waited).toBeGreaterThanOrEqual(1000); // it tried again rather than giving up at the first selection
  expect(waited).toBeLessThan(5000);
});

test('a server that comes up (or answers again) during the start is waited for, with one warning (CI, stop 36)', async () => {
  const target = new URL(testEndpoints().mongoUrl);
  const relay = await tcpRelay({ host: target.hostname, port: Number(target.port) });
  await relay.cut('refuse');
  const warnings: string[] = [];
  const logger = { info: () => undefined, warn: (_: object, msg?: string) => warnings.push(String(msg)) };
  const restored = new Promise((r) => setTimeout(r, 3000)).then(() => relay.restore());
  try {
    const late = await connectMongo(
      `mongodb://127.0.0.1:${relay.port}/?directConnection=true`,
      dbName,
      logger,
      {
        serverSelectionTimeoutMS: 500,
      },
    );
    await restored;
    expect(await late.db?.command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect(warnings).toEqual(['MongoDB is not answering yet; still trying']);
    await late.close();
  } finally {
    await restored;
    await relay.close();
  }
});

test('closing the connection ourselves (a shutdown) is logged as info, not as a warning (issue 29)', async () => {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const other = await connectMongo(testEndpoints().mongoUrl, dbName, pino({ level: 'info' }, sink));
  await other.close();
  await new Promise((r) => setImmediate(r));
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    [30, 'connected to MongoDB'],
    [30, 'MongoDB closed'],
  ]);
});
