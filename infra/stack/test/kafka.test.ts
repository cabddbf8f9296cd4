/** The local Kafka broker: explicit topics with 6 partitions, produce, consume back in a group. */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { testEndpoints } from '../src/endpoints';

const run = `t${randomBytes(4).toString('hex')}`;
const kafka = new Kafka({ clientId: run, brokers: testEndpoints().kafkaBrokers, logLevel: logLevel.WARN });
const admin = kafka.admin();
const topic = `${run}.infra.order`;

beforeAll(() => admin.connect());
afterAll(async () => {
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
});

/**
 * The topic's partitions once each has a leader. Polled: for a moment after creating a topic a busy
 * broker answers "does not host this topic-partition", on which kafkajs' own `waitForLeaders` gives up
 * (a loaded CI run); the services' `ensureTopics` waits the same way.
 */
async function partitionsWithLeaders(name: string): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const meta = await admin.fetchTopicMetadata({ topics: [name] }).catch((err: Error) => {
      if (Date.now() > deadline) throw err;
      return undefined;
    });
    const partitions = meta?.topics[0]?.partitions ?? [];
    if (partitions.length > 0 && partitions.every((p) => p.leader >= 0)) return partitions.length;
    if (Date.now() > deadline) throw new Error(`${name}: partitions without a leader after 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a topic is created with 6 partitions and auto-creation is off', async () => {
  expect(await admin.createTopics({ topics: [{ topic, numPartitions: 6 }] })).toBe(true);
  expect(await partitionsWithLeaders(topic)).toBe(6);

  // A client of its own with logging off: the refusal below is the expected outcome.
  const quiet = new Kafka({
    clientId: run,
    brokers: testEndpoints().kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const probe = quiet.producer({ createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 1 } });
  await probe.connect();
  await expect(probe.send({ topic: `${run}.no-such-topic`, messages: [{ value: 'x' }] })).rejects.toThrow(
    /does not host this topic-partition|UNKNOWN_TOPIC/i,
  );
  await probe.disconnect();
});

test('messages produced by key are consumed back by a consumer group, in order per key', async () => {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const sent = Array.from({ length: 30 }, (_, i) => ({ key: `order-${i % 5}`, value: `event-${i}` }));
  await producer.send({ topic, messages: sent });
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId: `${run}-infra-test` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const received: { key: string; value: string; partition: number }[] = [];
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachMessage: async ({ message, partition }) => {
          received.push({ key: String(message.key), value: String(message.value), partition });
          if (received.length === sent.length) resolve();
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();

  expect(received.map((m) => m.value).sort()).toEqual(sent.map((m) => m.value).sort());
  for (const key of new Set(sent.map((m) => m.key))) {
    const ofKey = received.filter((m) => m.key === key);
    expect(new Set(ofKey.map((m) => m.partition)).size).toBe(1); // one key, one partition
    expect(ofKey.map((m) => m.value)).toEqual(sent.filter((m) => m.key === key).map((m) => m.value));
  }
});
