/**
 * startOwnGroupConsumer on a real Kafka, for what its users' tests (cache.test.ts, the gateway's
 * order streams and session revocation) do not show: a start other than the topic's end, the hook
 * running before anything is read, joining again, hook included, after a crash kafkajs does
 * not recover from by itself, and the fetches of a reader with a batch window.
 */
import { randomBytes } from 'node:crypto';
import type { Kafka, Producer } from 'kafkajs';
import {
  createKafka,
  ensureTopics,
  type OwnGroupConsumer,
  silentLogger,
  startOwnGroupConsumer,
} from '../src/messaging';
import { eventually, testEndpoints } from '../src/testing';
import { countBrokerRequests } from './broker-requests';

const run = `t${randomBytes(4).toString('hex')}`;
let kafka: Kafka;
let producer: Producer;
const started: OwnGroupConsumer[] = [];

const publish = (topic: string, value: string) => producer.send({ topic, messages: [{ key: 'k', value }] });

/** Reads `topic`, noting the hook's runs and the values read, in order. */
const read = (
  topic: string,
  opts: { fromBeginning?: boolean; crashOn?: string; batchWindowMs?: number } = {},
) => {
  const seen: string[] = [];
  const reader = startOwnGroupConsumer({
    name: `${run}.own`,
    kafka,
    topic,
    logger: silentLogger,
    component: 'test',
    startFrom: opts.fromBeginning
      ? async () => Array.from({ length: 2 }, (_, partition) => ({ partition, offset: '0' }))
      : undefined,
    beforeReading: () => seen.push('(joined)'),
    onMessage: (message) => {
      const value = message.value?.toString() ?? '';
      seen.push(value);
      // A TypeError is not retriable: kafkajs crashes without restarting.
      if (value === opts.crashOn) throw new TypeError('handler bug');
    },
    batchWindowMs: opts.batchWindowMs,
    retryMs: 300,
    logs: { unread: 'test', crashed: 'test', readAgain: 'test' },
  });
  started.push(reader);
  return { reader, seen };
};

beforeAll(async () => {
  kafka = createKafka({ clientId: `${run}-test`, brokers: testEndpoints().kafkaBrokers });
  producer = kafka.producer();
  await producer.connect();
});

afterAll(async () => {
  for (const reader of started) await reader.stop();
  await producer?.disconnect();
});

it('reads from where startFrom says, after the hook', async () => {
  const topic = `${run}.from-start`;
  await ensureTopics(kafka, [topic], { partitions: 2 });
  await publish(topic, 'earlier');
  const { reader, seen } = read(topic, { fromBeginning: true });
  expect(await reader.start()).toBe(true);
  await eventually(async () => (seen.includes('earlier') ? true : undefined), 10_000, 'the earlier event');
  expect(seen).toEqual(['(joined)', 'earlier']);
});

it('joins again after a crash kafkajs does not restart from, running the hook again', async () => {
  const topic = `${run}.crash`;
  await ensureTopics(kafka, [topic], { partitions: 2 });
  await publish(topic, 'before-start');
  const { reader, seen } = read(topic, { crashOn: 'boom' });
  expect(await reader.start()).toBe(true);
  expect(seen).toEqual(['(joined)']); // from the end: the earlier event is not read
  await publish(topic, 'boom');
  await eventually(
    async () => (seen.filter((s) => s === '(joined)').length === 2 && reader.isListening ? true : undefined),
    20_000,
    'the second join',
  );
  await publish(topic, 'after');
  await eventually(
    async () => (seen.includes('after') ? true : undefined),
    10_000,
    'the event after the join',
  );
  // The second join starts at the end again: the event it crashed on is not read twice.
  expect(seen.filter((s) => s === 'boom')).toEqual(['boom']);
  expect(seen.at(-1)).toBe('after');

  const admin = kafka.admin();
  await admin.connect();
  try {
    await reader.stop();
    expect(reader.isListening).toBe(false);
    expect(await reader.start()).toBe(false);
    expect((await admin.listGroups()).groups.map((g) => g.groupId)).not.toContain(reader.groupId);
  } finally {
    await admin.disconnect();
  }
}, 40_000);

/** The fetches kafkajs sends for `topic` from now on. */
const countFetches = (topic: string) =>
  countBrokerRequests<{ topics: { topic: string }[] }>('fetch', (request) =>
    request.topics.some((t) => t.topic === topic) ? 'fetches' : undefined,
  );

it('a reader with a batch window fetches a quiet topic about once a second and a busy one once a window, hearing every event in order', async () => {
  const topic = `${run}.window`;
  const windowMs = 300;
  await ensureTopics(kafka, [topic], { partitions: 2 });
  const { reader, seen } = read(topic, { batchWindowMs: windowMs });
  expect(await reader.start()).toBe(true);
  const quiet = countFetches(topic);
  try {
    await new Promise((r) => setTimeout(r, 3_000));
    // The broker holds an idle fetch a second (a 300 ms wait would make ten in these 3 s).
    expect(quiet.counts.fetches ?? 0).toBeLessThanOrEqual(4);
  } finally {
    quiet.stop();
  }

  const busy = countFetches(topic);
  const since = Date.now();
  try {
    const sent = Array.from({ length: 100 }, (_, i) => `e${i}`);
    for (const value of sent) {
      await publish(topic, value); // one key: one partition, in order
      await new Promise((r) => setTimeout(r, 20));
    }
    await eventually(async () => (seen.includes('e99') ? true : undefined), 10_000, 'the last event');
    expect(seen.slice(1)).toEqual(sent);
    // A fetch per event without the window; with it, one per window while events keep coming.
    expect(busy.counts.fetches ?? 0).toBeLessThanOrEqual(Math.ceil((Date.now() - since) / windowMs) + 2);
  } finally {
    busy.stop();
  }
}, 40_000);
