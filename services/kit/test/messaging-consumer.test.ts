import { randomBytes, randomUUID } from 'node:crypto';
import { type AggregateType, defineEvent, type EventEnvelope } from '@decor/contracts';
import { Type } from '@sinclair/typebox';
import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import mongoose, { type Connection, type Model, Schema } from 'mongoose';
import {
  appliedEventsPlugin,
  type ConsumerHandle,
  createKafka,
  createPublisher,
  DLQ_HEADERS,
  dlqTopicFor,
  type EventHandler,
  ensureTopics,
  eventHandler,
  kafkaReadiness,
  PROCESSED_EVENTS_COLLECTION,
  type Publisher,
  publishEnvelopes,
  startConsumer,
  topicFor,
  waitForCatchUp,
} from '../src/messaging';
import { testEndpoints } from '../src/testing';

const run = `t${randomBytes(4).toString('hex')}`;
const group = { main: `${run}-order-svc`, shared: `${run}-cart-svc`, fragile: `${run}-fragile` };
const topic = {
  main: topicFor(run, 'order'),
  shared: topicFor(run, 'cart'),
  fragile: topicFor(run, 'catalogue'),
};
const Quantity = defineEvent('QuantityChecked', 1, 'order', Type.Object({ quantity: Type.Integer() }));
// Its handler's effect is keyed by the event id (as a BullMQ job id is): idempotent, order-free.
const Keyed = defineEvent('JobKeyed', 1, 'order', Type.Object({ n: Type.Integer() }));
const keyedJobs = new Set<string>(); // the "jobs" added, by event id
const keyedRuns = { inFlight: 0, most: 0 };
// Fast group changes for the test (defaults are seconds).
const consumerConfig = { maxWaitTimeInMs: 200, heartbeatInterval: 300, sessionTimeout: 10_000 };

interface CounterDoc {
  _id: string;
  n: number;
}

let conn: Connection;
let kafka: Kafka;
let publisher: Publisher;
let Counters: Model<CounterDoc>;
const consumers: ConsumerHandle[] = [];
let dlqReader: Consumer;
const dlqMessages: KafkaMessage[] = [];
const calls = new Map<string, number>(); // event id → handler invocations
const handledBy = new Map<string, Set<string>>(); // event id → consumers that ran it

function envelope(
  type: string,
  aggregateType: AggregateType,
  aggregateId: string,
  payload: unknown = {},
): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    aggregateType,
    aggregateId,
    occurredAt: new Date().toISOString(),
    correlationId: randomUUID(),
    payload,
  };
}

function count(tag: string): EventHandler {
  return async (evt, ctx) => {
    calls.set(evt.id, (calls.get(evt.id) ?? 0) + 1);
    handledBy.set(evt.id, (handledBy.get(evt.id) ?? new Set()).add(tag));
    await ctx.applyOnce(Counters, { _id: evt.aggregateId }, { $inc: { n: 1 } }, { upsert: true });
  };
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const counter = async (id: string) => (await Counters.findById(id).lean())?.n ?? 0;
const processed = (groupId: string, eventId: string) =>
  conn.collection(PROCESSED_EVENTS_COLLECTION).findOne({ _id: `${groupId}:${eventId}` as never });

beforeAll(async () => {
  const env = testEndpoints();
  conn = await mongoose.createConnection(env.mongoUrl, { dbName: `${run}_consumer` }).asPromise();
  const schema = new Schema<CounterDoc>({ _id: String, n: Number });
  schema.plugin(appliedEventsPlugin);
  Counters = conn.model<CounterDoc>('Counter', schema);
  kafka = createKafka({ clientId: run, brokers: env.kafkaBrokers });
  publisher = createPublisher(kafka);
  await publisher.connect();
  await ensureTopics(kafka, [...Object.values(topic), dlqTopicFor(run, group.main)]);

  const fragilePublisher = createPublisher(kafka);
  await fragilePublisher.connect();
  dlqReader = kafka.consumer({ groupId: `${run}-dlq-reader`, ...consumerConfig });
  const joins = [
    startConsumer({
      kafka,
      groupId: group.main,
      topics: [topic.main],
      connection: conn,
      dlq: { topic: dlqTopicFor(run, group.main), publisher },
      retry: { attempts: 3, initialMs: 20 },
      consumerConfig,
      handlers: {
        Counted: count('main'),
        Flaky: async (evt, ctx) => {
          const n = (calls.get(evt.id) ?? 0) + 1;
          calls.set(evt.id, n);
          if (n <= 2) throw new Error(`QuickBooks timeout #${n}`);
          await ctx.applyOnce(Counters, { _id: evt.aggregateId }, { $inc: { n: 1 } }, { upsert: true });
        },
        Poison: async (evt) => {
          calls.set(evt.id, (calls.get(evt.id) ?? 0) + 1);
          throw new Error('cannot read legacy order format');
        },
        ...eventHandler(
          Keyed,
          async (evt) => {
            calls.set(evt.id, (calls.get(evt.id) ?? 0) + 1);
            keyedRuns.inFlight += 1;
            keyedRuns.most = Math.max(keyedRuns.most, keyedRuns.inFlight);
            await new Promise((r) => setTimeout(r, 20)); // a round trip to Redis
            keyedJobs.add(evt.id);
            keyedRuns.inFlight -= 1;
          },
          { idempotentForMs: 60_000, unordered: true },
        ),
        ...eventHandler(Quantity, async (evt, ctx) => {
          await ctx.applyOnce(
            Counters,
            { _id: evt.aggregateId },
            { $inc: { n: evt.payload.quantity } },
            { upsert: true },
          );
        }),
      },
    }),
    // Two instances of one service: same group, same handlers.
    ...['a', 'b'].map((tag) =>
      startConsumer({
        kafka,
        groupId: group.shared,
        topics: [topic.shared],
        connection: conn,
        dlq: { topic: dlqTopicFor(run, group.shared), publisher },
        consumerConfig,
        handlers: { Counted: count(tag) },
      }),
    ),
    // Its dead-letter publisher will be gone: the consumer must crash visibly, not commit.
    startConsumer({
      kafka,
      groupId: group.fragile,
      topics: [topic.fragile],
      connection: conn,
      dlq: { topic: dlqTopicFor(run, group.fragile), publisher: fragilePublisher, timeoutMs: 1000 },
      retry: { attempts: 1 },
      maxRestarts: 0,
      kafkaRetry: { retries: 0 },
      consumerConfig,
      handlers: { Poison: async () => Promise.reject(new Error('poison')) },
    }),
  ];
  await dlqReader.connect();
  await dlqReader.subscribe({ topic: dlqTopicFor(run, group.main), fromBeginning: true });
  await dlqReader.run({ eachMessage: async ({ message }) => void dlqMessages.push(message) });
  consumers.push(...(await Promise.all(joins)));
  await fragilePublisher.disconnect();
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.stop()));
  await dlqReader?.disconnect();
  await publisher?.disconnect();
  const admin = kafka.admin();
  await admin.connect();
  const dlqs = Object.values(group).map((g) => dlqTopicFor(run, g));
  await admin.deleteTopics({ topics: [...Object.values(topic), ...dlqs] }).catch(() => {});
  await admin.disconnect();
  await conn?.dropDatabase();
  await conn?.close();
});

test('a redelivered event (same id) is applied once', async () => {
  const evt = envelope('Counted', 'order', `order-${randomUUID()}`);
  await publishEnvelopes(publisher.producer, run, [evt, evt]);
  await publishEnvelopes(publisher.producer, run, [evt]);
  const after = envelope('Counted', 'order', evt.aggregateId); // same partition, behind the copies
  await publishEnvelopes(publisher.producer, run, [after]);
  await waitFor(async () => (await counter(evt.aggregateId)) === 2);
  expect(calls.get(evt.id)).toBe(1);
  expect(await processed(group.main, evt.id)).toMatchObject({ outcome: 'applied', type: 'Counted' });
});

test('a handler that throws twice then succeeds is applied once', async () => {
  const evt = envelope('Flaky', 'order', `order-${randomUUID()}`);
  await publishEnvelopes(publisher.producer, run, [evt]);
  await waitFor(async () => (await counter(evt.aggregateId)) === 1);
  await waitFor(async () => (await processed(group.main, evt.id)) !== null);
  expect(calls.get(evt.id)).toBe(3);
  expect(await counter(evt.aggregateId)).toBe(1);
});

test('poison messages end in the dead-letter topic with their error; the consumer goes on', async () => {
  const orderId = `order-${randomUUID()}`;
  const poison = envelope('Poison', 'order', orderId);
  const wrongShape = envelope('QuantityChecked', 'order', orderId, { quantity: 'three' });
  const next = envelope('QuantityChecked', 'order', orderId, { quantity: 3 });
  await publishEnvelopes(publisher.producer, run, [poison, wrongShape]);
  await publisher.producer.send({ topic: topic.main, messages: [{ key: orderId, value: 'not json' }] });
  await publishEnvelopes(publisher.producer, run, [next]);

  await waitFor(async () => (await counter(orderId)) === 3); // the event behind the poison was applied
  await waitFor(() => dlqMessages.length >= 3);
  const header = (m: KafkaMessage | undefined, h: string) => m?.headers?.[h]?.toString();
  const [first, second, third] = dlqMessages;
  expect(JSON.parse(first?.value?.toString() ?? '')).toEqual(poison); // original value kept
  expect(header(first, DLQ_HEADERS.error)).toBe('Error: cannot read legacy order format');
  expect(header(first, DLQ_HEADERS.attempts)).toBe('3');
  expect(header(first, DLQ_HEADERS.topic)).toBe(topic.main);
  expect(header(first, DLQ_HEADERS.groupId)).toBe(group.main);
  expect(Number(header(first, DLQ_HEADERS.offset))).toBeGreaterThanOrEqual(0);
  expect(header(first, 'event-id')).toBe(poison.id); // original headers kept
  expect(calls.get(poison.id)).toBe(3);
  // A payload that breaks its contract is permanent: dead-lettered after one attempt.
  expect(header(second, DLQ_HEADERS.error)).toMatch(
    /PermanentEventError: QuantityChecked payload .*quantity/,
  );
  expect(header(second, DLQ_HEADERS.attempts)).toBe('1');
  expect(second?.key?.toString()).toBe(orderId);
  expect(header(third, DLQ_HEADERS.error)).toMatch(/SyntaxError/);
  expect(await processed(group.main, poison.id)).toMatchObject({ outcome: 'dead-lettered' });
  expect(consumers[0]?.isHealthy()).toBe(true);
});

test('events of types the service does not handle are passed over: no record, the progress moves on', async () => {
  const evt = envelope('OrderArchived', 'order', `order-${randomUUID()}`);
  await publishEnvelopes(publisher.producer, run, [evt]);
  // Caught up with the topic's end, which is past the skipped event: its offset is behind the group.
  const admin = kafka.admin();
  await admin.connect();
  try {
    expect(
      await waitForCatchUp({
        admin,
        connection: conn,
        groupId: group.main,
        topic: topic.main,
        timeoutMs: 20_000,
      }),
    ).toBe(true);
  } finally {
    await admin.disconnect();
  }
  // No handler ran, so there is nothing a redelivery would need to know: no write per skipped event.
  expect(await processed(group.main, evt.id)).toBeNull();
});

test('handlers keyed by the event id run side by side; a recent redelivered event runs again without a look-up, its key keeping the effect once', async () => {
  const orderId = `order-${randomUUID()}`; // one partition: one batch, in order
  const events = Array.from({ length: 10 }, (_, n) => ({
    ...envelope('JobKeyed', 'order', orderId),
    payload: { n },
  }));
  await publishEnvelopes(publisher.producer, run, events);
  await waitFor(() => events.every((e) => keyedJobs.has(e.id)));
  expect(keyedRuns.most).toBeGreaterThan(1);
  await waitFor(async () => (await processed(group.main, events[9]?.id ?? '')) !== null);
  for (const e of events) expect(await processed(group.main, e.id)).toMatchObject({ outcome: 'applied' });

  const first = events[0] as EventEnvelope;
  await publishEnvelopes(publisher.producer, run, [first]);
  await waitFor(() => calls.get(first.id) === 2); // not looked up: run again …
  expect(events.filter((e) => keyedJobs.has(e.id))).toHaveLength(10); // … its effect, keyed by its id, still one
});

test('an event older than its handler keeps its key is looked up as any other: redelivered, it does not run again', async () => {
  const orderId = `order-${randomUUID()}`;
  const old = {
    ...envelope('JobKeyed', 'order', orderId),
    occurredAt: new Date(Date.now() - 120_000).toISOString(), // the window is 60 s
    payload: { n: 1 },
  };
  await publishEnvelopes(publisher.producer, run, [old]);
  await waitFor(async () => (await processed(group.main, old.id)) !== null);
  const after = { ...envelope('JobKeyed', 'order', orderId), payload: { n: 2 } };
  await publishEnvelopes(publisher.producer, run, [old, after]);
  await waitFor(() => keyedJobs.has(after.id));
  expect(calls.get(old.id)).toBe(1);
});

test("handled offsets reach Kafka within about a second (committed off the batches' path)", async () => {
  const evt = envelope('Counted', 'order', `order-${randomUUID()}`);
  await publishEnvelopes(publisher.producer, run, [evt]);
  await waitFor(async () => (await processed(group.main, evt.id)) !== null);
  const admin = kafka.admin();
  await admin.connect();
  try {
    // Every message on the topic is handled by now (applied, skipped or dead-lettered): the group's
    // committed offsets must reach the topic's end, as a new member or the chaos suite's lag check read them.
    const ends = await admin.fetchTopicOffsets(topic.main);
    const end = ends.reduce((n, p) => n + Number(p.high), 0);
    await waitFor(async () => {
      const [committed] = await admin.fetchOffsets({ groupId: group.main, topics: [topic.main] });
      return (committed?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0) === end;
    }, 5_000);
  } finally {
    await admin.disconnect();
  }
});

test('two instances in one group share the partitions; 500 events each take effect once', async () => {
  const [a, b] = [consumers[1], consumers[2]];
  await waitFor(() => {
    const pa = a?.health().assignment[topic.shared] ?? [];
    const pb = b?.health().assignment[topic.shared] ?? [];
    return pa.length > 0 && pb.length > 0 && pa.length + pb.length === 6;
  });
  expect(
    new Set([
      ...(a?.health().assignment[topic.shared] ?? []),
      ...(b?.health().assignment[topic.shared] ?? []),
    ]).size,
  ).toBe(6);

  const carts = Array.from({ length: 50 }, () => `cart-${randomUUID()}`);
  const events = Array.from({ length: 500 }, (_, i) => envelope('Counted', 'cart', carts[i % 50] ?? ''));
  const duplicates = events.filter((_, i) => i % 10 === 0); // 50 redeliveries
  for (let i = 0; i < events.length; i += 50)
    await publishEnvelopes(publisher.producer, run, events.slice(i, i + 50));
  await publishEnvelopes(publisher.producer, run, duplicates);

  await waitFor(async () => {
    const docs = await Counters.find({ _id: { $in: carts } }).lean();
    return docs.reduce((s, d) => s + d.n, 0) >= 500;
  });
  await new Promise((r) => setTimeout(r, 500)); // would anything be applied twice?
  const docs = await Counters.find({ _id: { $in: carts } }).lean();
  expect(docs).toHaveLength(50);
  expect(docs.every((d) => d.n === 10)).toBe(true);
  const tags = events.map((e) => [...(handledBy.get(e.id) ?? [])]);
  expect(tags.every((t) => t.length === 1)).toBe(true); // no event ran in both instances
  const byA = tags.filter((t) => t[0] === 'a').length;
  expect(byA).toBeGreaterThan(0);
  expect(byA).toBeLessThan(500);
});

test('a consumer that cannot dead-letter crashes visibly and commits nothing', async () => {
  const fragile = consumers[3];
  expect(fragile?.isHealthy()).toBe(true);
  const evt = envelope('Poison', 'catalogue', `item-${randomUUID()}`);
  await publishEnvelopes(publisher.producer, run, [evt]);
  await waitFor(() => fragile?.isHealthy() === false);
  expect(fragile?.health()).toMatchObject({ state: 'crashed', healthy: false });
  expect(fragile?.health().lastError).toMatch(/disconnected|dead-letter/);
  // What /readyz reports: the healthy consumers alone are ready; with the crashed one, not.
  expect(kafkaReadiness({ publisher, consumers: consumers.slice(0, 3) }).ready).toBe(true);
  expect(kafkaReadiness({ publisher, consumers }).ready).toBe(false);

  const admin = kafka.admin();
  await admin.connect();
  const [offsets] = await admin.fetchOffsets({ groupId: group.fragile, topics: [topic.fragile] });
  await admin.disconnect();
  expect(offsets?.partitions.every((p) => p.offset === '-1')).toBe(true);
  expect(await processed(group.fragile, evt.id)).toBeNull();
});
