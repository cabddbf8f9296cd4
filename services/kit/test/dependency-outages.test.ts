import { randomBytes } from 'node:crypto';
import { UNAVAILABLE_MESSAGES } from '@decor/contracts';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Connection, type Model, Schema } from 'mongoose';
import { createServiceApp, type ServiceApp } from '../src/http';
import { createQueue, createRedis, enqueueOnce } from '../src/jobs';
import { connectMongo } from '../src/mongo';
import { type TcpRelay, tcpRelay } from '../src/tcp-relay';
import { eventually, testEndpoints } from '../src/testing';
import { type Answer, call, listen } from './http-helpers';

/**
 * A service's routes while Redis or MongoDB is out of reach (cut at a relay in front of the shared
 * test servers): a 503 with a message within the bounds, and 200 again once it is back.
 */
const run = `t${randomBytes(4).toString('hex')}`;
const REDIS_BOUND_MS = 2000;
const MONGO_BOUND_MS = 4000;

let redisRelay: TcpRelay;
let mongoRelay: TcpRelay;
let redis: Redis;
let queue: Queue;
let conn: Connection;
let Notes: Model<{ text: string }>;
let app: ServiceApp;
let base: string;

beforeAll(async () => {
  const e = testEndpoints();
  const redisUrl = new URL(e.redisUrl);
  redisRelay = await tcpRelay({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
  const mongoUrl = new URL(e.mongoUrl);
  mongoRelay = await tcpRelay({ host: mongoUrl.hostname, port: Number(mongoUrl.port) });

  redis = createRedis(`redis://127.0.0.1:${redisRelay.port}`, { purpose: 'producer' });
  redis.on('error', () => {});
  queue = createQueue('outage', { connection: redis, prefix: run });
  queue.on('error', () => {});
  await queue.waitUntilReady();
  conn = await connectMongo(`mongodb://127.0.0.1:${mongoRelay.port}/?directConnection=true`, `${run}_outage`);
  Notes = conn.model('Note', new Schema<{ text: string }>({ text: String }));
  await Notes.create({ text: 'first' });

  app = await createServiceApp({ name: 'outage-test', logLevel: 'silent' });
  let n = 0;
  app.post('/job', async () => ({
    result: { id: await enqueueOnce(queue, 'job', {}, { jobId: `j${++n}` }) },
  }));
  app.get('/notes', async () => ({ result: await Notes.find().lean() }));
  base = await listen(app);
});

afterAll(async () => {
  await app?.close();
  await redisRelay?.restore();
  await mongoRelay?.restore();
  await queue?.obliterate({ force: true }).catch(() => {});
  await queue?.close();
  await redis?.quit().catch(() => redis.disconnect());
  await conn?.dropDatabase().catch(() => {});
  await conn?.close();
  await redisRelay?.close();
  await mongoRelay?.close();
});

// A failed check must not leave the next test behind a cut relay.
afterEach(async () => {
  await redisRelay.restore();
  await mongoRelay.restore();
});

async function timed(path: string, method = 'GET'): Promise<Answer & { ms: number }> {
  const started = Date.now();
  const answer = await call(base, path, { method });
  return { ...answer, ms: Date.now() - started };
}

async function answersAgain(path: string, method = 'GET'): Promise<Answer> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await call(base, path, { method });
    if (answer.status === 200 || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each(['hang', 'refuse'] as const)('Redis %s', (mode) => {
  it(`an enqueue answers 503 with a message within ${REDIS_BOUND_MS} ms, and 200 once Redis is back`, async () => {
    expect((await call(base, '/job', { method: 'POST' })).status).toBe(200);
    await redisRelay.cut(mode);
    for (let i = 0; i < 3; i++) {
      const answer = await timed('/job', 'POST');
      expect(answer).toMatchObject({ status: 503, body: { message: UNAVAILABLE_MESSAGES.jobs } });
      expect(answer.ms).toBeLessThan(REDIS_BOUND_MS);
    }
    await redisRelay.restore();
    expect((await answersAgain('/job', 'POST')).status).toBe(200);
  }, 30_000);
});

// CI's npm start: a service's e-mail queue was made while the loaded machine's Redis took over a second
// to answer, and every add failed with "Command timed out" until the process was restarted.
it('a queue made while Redis answers nothing takes jobs once Redis is back', async () => {
  await redisRelay.cut('hang');
  const late = createQueue('made-during-outage', { connection: redis, prefix: run });
  late.on('error', () => {});
  try {
    await expect(enqueueOnce(late, 'job', {}, { jobId: 'during' })).rejects.toThrow();
    await redisRelay.restore();
    const added = await eventually(
      () => enqueueOnce(late, 'job', {}, { jobId: 'after' }),
      20_000,
      'the job added once Redis is back',
    );
    expect(added).toBe('after');
    expect(await late.getJobCounts('waiting')).toEqual({ waiting: 1 });
  } finally {
    await late.obliterate({ force: true }).catch(() => {});
    await late.close();
  }
}, 40_000);

it('a read while MongoDB accepts connections but answers nothing gets 503 with a message before the gateway gives up (14 s)', async () => {
  expect((await call(base, '/notes')).status).toBe(200);
  await mongoRelay.cut('hang');
  const answer = await timed('/notes');
  expect(answer).toMatchObject({ status: 503, body: { message: UNAVAILABLE_MESSAGES.database } });
  expect(answer.ms).toBeLessThan(13_000);
  await mongoRelay.restore();
  expect((await answersAgain('/notes')).status).toBe(200);
}, 60_000);

it(`a read while MongoDB is down answers 503 with a message within ${MONGO_BOUND_MS} ms, and 200 once it is back`, async () => {
  expect((await call(base, '/notes')).status).toBe(200);
  await mongoRelay.cut('refuse');
  for (let i = 0; i < 2; i++) {
    const answer = await timed('/notes');
    expect(answer).toMatchObject({ status: 503, body: { message: UNAVAILABLE_MESSAGES.database } });
    expect(answer.ms).toBeLessThan(MONGO_BOUND_MS);
  }
  await mongoRelay.restore();
  const again = await answersAgain('/notes');
  expect(again).toMatchObject({ status: 200, body: { result: [{ text: 'first' }] } });
}, 40_000);
