/**
 * ensureTopics on a real broker: missing topics created with the partition count asked for, existing
 * ones left as they are, concurrent creators all satisfied, and the broker asked about these topics
 * only (a request for all topics describes every partition of a broker that holds thousands).
 */
import { randomBytes } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import { createKafka, ensureTopics } from '../src/messaging';
import { testEndpoints } from '../src/testing';
import { countBrokerRequests } from './broker-requests';

const run = `t${randomBytes(4).toString('hex')}`;
let kafka: Kafka;
let admin: Admin;

beforeAll(async () => {
  kafka = createKafka({ clientId: `${run}-test`, brokers: testEndpoints().kafkaBrokers });
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  const ours = (await admin.listTopics()).filter((t) => t.startsWith(`${run}.`));
  await admin.deleteTopics({ topics: ours }).catch(() => {});
  await admin.disconnect();
});

const partitionsOf = async (topics: string[]) =>
  Object.fromEntries(
    (await admin.fetchTopicMetadata({ topics })).topics.map((t) => [t.name, t.partitions.length]),
  );

/** Metadata requests kafkajs sends from now on: `all` for every topic, `named` for some. */
const countMetadataRequests = () =>
  countBrokerRequests<string[] | undefined>('metadata', (topics = []) =>
    topics.length === 0 ? 'all' : 'named',
  );

it('creates the missing topics with the partitions asked for and leaves an existing one as it is', async () => {
  const existing = `${run}.existing`;
  const missing = `${run}.missing`;
  await ensureTopics(kafka, [existing], { partitions: 2 });
  await ensureTopics(kafka, [existing, missing], { partitions: 3 });
  expect(await partitionsOf([existing, missing])).toEqual({ [existing]: 2, [missing]: 3 });
});

it('several creators of the same new topics at once all succeed', async () => {
  const topics = [`${run}.same-a`, `${run}.same-b`];
  await Promise.all(
    [1, 2, 3].map(() =>
      ensureTopics(createKafka({ clientId: `${run}-c`, brokers: testEndpoints().kafkaBrokers }), topics),
    ),
  );
  expect(await partitionsOf(topics)).toEqual({ [topics[0] as string]: 6, [topics[1] as string]: 6 });
});

it('asks the broker about its own topics only when they are there, and once about all when it creates', async () => {
  const topics = [`${run}.asked-a`, `${run}.asked-b`];
  let requests = countMetadataRequests();
  try {
    await ensureTopics(kafka, topics);
    // kafkajs' createTopics refreshes its view of every topic first.
    expect(requests.counts.all ?? 0).toBeLessThanOrEqual(1);
  } finally {
    requests.stop();
  }
  requests = countMetadataRequests();
  try {
    await ensureTopics(kafka, topics);
    expect(requests.counts.all ?? 0).toBe(0);
    expect(requests.counts.named ?? 0).toBeGreaterThan(0);
  } finally {
    requests.stop();
  }
});
