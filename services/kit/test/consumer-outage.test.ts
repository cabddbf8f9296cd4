import { randomBytes, randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@decor/contracts';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import mongoose, { type Connection } from 'mongoose';
import { createQueue, createRedis, enqueueOnce } from '../src/jobs';
import {
  type ConsumerHandle,
  createKafka,
  createPublisher,
  dlqTopicFor,
  ensureTopics,
  PROCESSED_EVENTS_COLLECTION,
  type ProcessedRecord,
  type Publisher,
  publishEnvelopes,
  startConsumer,
  topicFor,
} from '../src/messaging';
import { type TcpRelay, tcpRelay } from '../src/tcp-relay';
import { testEndpoints } from '../src/testing';

/**
 * A consumer whose handler enqueues (what the notification service does for every e-mail) while
 * Redis is out of reach: the event is neither dead-lettered nor lost; the job is added once Redis
 * is back. (Before, the handler's three quick attempts failed and the event went to the DLQ.)
 */
const run = `t${randomBytes(4).toString('hex')}`;
const groupId = `${run}-mailer`;
const topic = topicFor(run, 'user');
let relay: TcpRelay;
let redis: Redis;
let queue: Queue;
let conn: Connection;
let kafka: Kafka;
let publisher: Publisher;
let consumer: ConsumerHandle;

beforeAll(async () => {
  const e = testEndpoints();
  const url = new URL(e.redisUrl);
  relay = await tcpRelay({ host: url.hostname, port: Number(url.port || 6379) });
  redis = createRedis(`redis://127.0.0.1:${relay.port}`, { purpose: 'producer' });
  redis.on('error', () => {});
  queue = createQueue('mails', { connection: redis, prefix: run });
  queue.on('error', () => {});
  await queue.waitUntilReady();
  conn = await mongoose.createConnection(e.mongoUrl, { dbName: `${run}_consumer_outage` }).asPromise();
  kafka = createKafka({ clientId: run, brokers: e.kafkaBrokers });
  publisher = createPublisher(kafka);
  await publisher.connect();
  await ensureTopics(kafka, [topic]);
  consumer = await startConsumer({
    kafka,
    groupId,
    topics: [topic],
    connection: conn,
    dlq: { topic: dlqTopicFor(run, groupId), publisher },
    consumerConfig: { maxWaitTimeInMs: 200, heartbeatInterval: 300, sessionTimeout: 10_000 },
    handlers: {
      Noted: async (event) => {
        await enqueueOnce(queue, 'mail', { id: event.id }, { jobId: `mail.${event.id}` });
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await relay?.restore();
  await consumer?.stop();
  await publisher?.disconnect();
  await queue?.obliterate({ force: true }).catch(() => {});
  await queue?.close();
  await redis?.quit().catch(() => redis.disconnect());
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic, dlqTopicFor(run, groupId)] }).catch(() => {});
  await admin.disconnect();
  await conn?.dropDatabase();
  await conn?.close();
  await relay?.close();
});

it('an event handled while Redis is away waits for it: not dead-lettered, its job added once Redis is back', async () => {
  await relay.cut('refuse');
  const event: EventEnvelope = {
    id: randomUUID(),
    type: 'Noted',
    version: 1,
    aggregateType: 'user',
    aggregateId: 'u1',
    occurredAt: new Date().toISOString(),
    correlationId: randomUUID(),
    payload: {},
  };
  await publishEnvelopes(publisher.producer, run, [event]);
  const processed = conn.collection<ProcessedRecord>(PROCESSED_EVENTS_COLLECTION);
  // Far longer than the handler's three attempts (≤ 100 + 200 ms of backoff).
  await new Promise((r) => setTimeout(r, 5000));
  expect(await processed.findOne({ _id: `${groupId}:${event.id}` })).toBeNull();

  await relay.restore();
  const deadline = Date.now() + 30_000;
  let record = await processed.findOne({ _id: `${groupId}:${event.id}` });
  while (!record && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    record = await processed.findOne({ _id: `${groupId}:${event.id}` });
  }
  expect(record?.outcome).toBe('applied');
  expect(await queue.getJob(`mail.${event.id}`)).toBeTruthy();
}, 60_000);
