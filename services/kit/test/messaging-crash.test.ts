import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { EventEnvelope } from '@decor/contracts';
import type { Kafka } from 'kafkajs';
import mongoose, { type Connection, Schema } from 'mongoose';
import {
  appliedEventsPlugin,
  type ConsumerHandle,
  createKafka,
  createPublisher,
  dlqTopicFor,
  ensureTopics,
  PROCESSED_EVENTS_COLLECTION,
  type Publisher,
  publishEnvelopes,
  startConsumer,
  topicFor,
} from '../src/messaging';
import { testEndpoints } from '../src/testing';

const run = `t${randomBytes(4).toString('hex')}`;
const groupId = `${run}-cart-svc`;
const topic = topicFor(run, 'cart');
let conn: Connection;
let kafka: Kafka;
let publisher: Publisher;
let survivor: ConsumerHandle | undefined;

beforeAll(async () => {
  const env = testEndpoints();
  conn = await mongoose.createConnection(env.mongoUrl, { dbName: `${run}_crash` }).asPromise();
  kafka = createKafka({ clientId: run, brokers: env.kafkaBrokers });
  publisher = createPublisher(kafka);
  await publisher.connect();
  await ensureTopics(kafka, [topic, dlqTopicFor(run, groupId)]);
});

afterAll(async () => {
  await survivor?.stop();
  await publisher?.disconnect();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic, dlqTopicFor(run, groupId)] }).catch(() => {});
  await admin.disconnect();
  await conn?.dropDatabase();
  await conn?.close();
});

/** Runs messaging-crash-child.ts until it SIGKILLs itself; returns the event it died on. */
function runDoomedInstance(crashAfter: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'messaging-crash-child.ts')], {
      cwd: join(__dirname, '..', '..', '..'),
      env: {
        ...process.env,
        DECOR_TEST_ENDPOINTS: JSON.stringify(testEndpoints()),
        CRASH_RUN: run,
        CRASH_GROUP: groupId,
        CRASH_TOPIC: topic,
        CRASH_AFTER: String(crashAfter),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', (code, signal) => {
      const died = /dying after (\S+)/.exec(out)?.[1];
      if (signal === 'SIGKILL' && died) resolve(died);
      else reject(new Error(`child exited ${code ?? signal} without dying as planned:\n${out}`));
    });
  });
}

test('a consumer killed mid-batch, right after a handler wrote: nothing lost, nothing applied twice', async () => {
  const carts = Array.from({ length: 10 }, () => `cart-${randomUUID()}`);
  const events: EventEnvelope[] = Array.from({ length: 300 }, (_, i) => ({
    id: randomUUID(),
    type: 'Counted',
    version: 1,
    aggregateType: 'cart',
    aggregateId: carts[i % 10] ?? '',
    occurredAt: new Date().toISOString(),
    correlationId: randomUUID(),
    payload: {},
  }));
  await publishEnvelopes(publisher.producer, run, events);

  const diedOn = await runDoomedInstance(100);
  const processed = conn.collection(PROCESSED_EVENTS_COLLECTION);
  const schema = new Schema({ _id: String, n: Number });
  schema.plugin(appliedEventsPlugin);
  const Counters = conn.model('Counter', schema);
  // The write happened, its record did not: exactly the window idempotent handlers must cover.
  expect(await Counters.countDocuments({ appliedEvents: diedOn })).toBe(1);
  expect(await processed.findOne({ _id: `${groupId}:${diedOn}` as never })).toBeNull();

  const ranAgain = new Set<string>();
  survivor = await startConsumer({
    kafka,
    groupId,
    topics: [topic],
    connection: conn,
    dlq: { topic: dlqTopicFor(run, groupId), publisher },
    consumerConfig: { maxWaitTimeInMs: 200, heartbeatInterval: 300 },
    handlers: {
      Counted: async (evt, ctx) => {
        ranAgain.add(evt.id);
        await ctx.applyOnce(Counters, { _id: evt.aggregateId }, { $inc: { n: 1 } }, { upsert: true });
      },
    },
  });
  const end = Date.now() + 30_000; // includes the dead member's session timeout (6 s)
  while ((await processed.countDocuments({ groupId })) < 300 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await processed.countDocuments({ groupId })).toBe(300);
  const counters = await Counters.find({ _id: { $in: carts } }).lean();
  expect(counters.map((c) => c.n)).toEqual(Array(10).fill(30));
  expect(ranAgain.has(diedOn)).toBe(true); // redelivered and re-run, but its effect counted once
});
