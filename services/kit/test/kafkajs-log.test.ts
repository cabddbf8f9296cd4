import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { logLevel } from 'kafkajs';
import pino from 'pino';
import { createKafka, ensureTopics } from '../src/messaging/kafka';
import { kafkajsLogCreator, RETRIABLE_PERSISTS_MS } from '../src/messaging/kafkajs-log';
import { eventually, testEndpoints } from '../src/testing';

/** A pino logger at trace whose lines the test reads. */
function capture() {
  const lines: { level: number; msg: string; error?: string; namespace?: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), lines };
}

const flush = () => new Promise((r) => setImmediate(r));

/**
 * kafkajs logs each retriable refusal at ERROR before retrying it (issue 29: a healthy first start
 * printed "The coordinator is loading…" as an ERROR line); a refusal that persists still reaches a person.
 */
describe("kafkajs' log lines", () => {
  it('a retriable refusal is debug; the same one for RETRIABLE_PERSISTS_MS is one warning; others keep their level', async () => {
    const { logger, lines } = capture();
    let now = 0;
    const log = kafkajsLogCreator(logger, () => now)(logLevel.INFO);
    const loading = "The coordinator is loading and hence can't process requests for this group";
    const refusal = (error: string) => ({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: { timestamp: '', message: 'Response InitProducerId(key: 22, version: 1)', broker: 'b:1', error },
    });
    log(refusal(loading));
    for (let t = 0; t <= RETRIABLE_PERSISTS_MS + 5_000; t += 5_000) {
      now = t;
      log(refusal(loading));
    }
    log(refusal('Topic creation errors')); // kafkajs' createTopics decides (see the real broker below)
    log(refusal('The user-specified log directory is not found in the broker config')); // not retriable
    log({
      namespace: 'Runner',
      level: logLevel.INFO,
      label: 'INFO',
      log: { timestamp: '', message: 'joined' },
    });
    await flush();
    expect(lines.map((l) => [l.level, l.error ?? l.msg])).toEqual([
      ...Array.from({ length: 7 }, () => [20, loading]),
      [40, loading],
      [20, loading],
      [20, 'Topic creation errors'],
      [50, 'The user-specified log directory is not found in the broker config'],
      [20, 'joined'],
    ]);
    expect(lines[7]?.msg).toBe(
      'Response InitProducerId(key: 22, version: 1): Kafka still answers this after 30 s',
    );
  });

  it('a connection the broker was slow to accept (a loaded first start) is debug, as kafkajs retries it; refused ones keep ERROR', async () => {
    const { logger, lines } = capture();
    const log = kafkajsLogCreator(logger, () => 0)(logLevel.INFO);
    // What kafkajs 2 logs (network/connection.js, cluster/brokerPool.js) when a connect times out,
    // and when the broker refuses it.
    const line = (namespace: string, message: string, extra: Record<string, unknown>) =>
      log({ namespace, level: logLevel.ERROR, label: 'ERROR', log: { timestamp: '', message, ...extra } });
    line('Connection', 'Connection timeout', { broker: '127.0.0.1:9092', clientId: 'order' });
    line(
      'BrokerPool',
      'Failed to connect to seed broker, trying another broker from the list: Connection timeout',
      {
        retryCount: 0,
        retryTime: 267,
      },
    );
    line('Connection', 'Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092' });
    await flush();
    expect(lines.map((l) => l.level)).toEqual([20, 20, 50]);
  });

  it('a member its group dropped (a stall past the session timeout) is one warning as kafkajs re-joins, not ERROR', async () => {
    const { logger, lines } = capture();
    const log = kafkajsLogCreator(logger, () => 0)(logLevel.INFO);
    const dropped = 'The coordinator is not aware of this member';
    // What kafkajs 2 logs (network/connection.js, consumer/runner.js) when a heartbeat finds the
    // member gone: the answer, twice, then the runner's re-join.
    const line = (namespace: string, message: string, extra: Record<string, unknown>) =>
      log({ namespace, level: logLevel.ERROR, label: 'ERROR', log: { timestamp: '', message, ...extra } });
    for (const correlationId of [9, 10])
      line('Connection', 'Response Heartbeat(key: 12, version: 3)', { error: dropped, correlationId });
    line('Runner', `${dropped}, re-joining the group`, { groupId: 'decor.cart.customers', error: dropped });
    await flush();
    expect(lines.map((l) => [l.level, l.namespace])).toEqual([
      [20, 'Connection'],
      [20, 'Connection'],
      [40, 'Runner'],
    ]);
  });

  it('a real broker: a consumer whose process stalls past its session is dropped, warns once and re-joins, with no ERROR', async () => {
    const { logger, lines } = capture();
    const topic = `stall-${randomBytes(4).toString('hex')}`;
    const kafka = createKafka({ clientId: 'stall', brokers: testEndpoints().kafkaBrokers, logger });
    // Through the kit, which waits out a busy broker's "does not host this topic-partition" for a
    // moment after creating it (kafkajs' own createTopics gave up on it in a full run).
    await ensureTopics(createKafka({ clientId: 'stall-admin', brokers: testEndpoints().kafkaBrokers }), [
      topic,
    ]);
    // The broker's shortest session (group.min.session.timeout.ms, 6 s).
    const consumer = kafka.consumer({ groupId: topic, sessionTimeout: 6_000, heartbeatInterval: 500 });
    let joins = 0;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      joins++;
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic] });
    await consumer.run({ eachMessage: async () => {} });
    try {
      await eventually(async () => joins === 1 || undefined, 30_000, 'the first join');
      // A stall of the whole process (a loaded machine, a long synchronous step): no heartbeats.
      const stallUntil = Date.now() + 9_000;
      while (Date.now() < stallUntil) {}
      await eventually(async () => joins === 2 || undefined, 30_000, 'the re-join');
    } finally {
      await consumer.disconnect();
    }
    await flush();
    const dropped = lines.filter((l) => l.error === 'The coordinator is not aware of this member');
    expect(dropped.filter((l) => l.level === 40).map((l) => l.namespace)).toEqual(['Runner']);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 60_000);

  it('a real broker: sending to a topic that does not exist logs its retried refusals as debug, and the send still fails', async () => {
    const { logger, lines } = capture();
    const kafka = createKafka({
      clientId: `log-${randomBytes(3).toString('hex')}`,
      brokers: testEndpoints().kafkaBrokers,
      logger,
    });
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      retry: { retries: 2, initialRetryTime: 50 },
    });
    await producer.connect();
    try {
      await expect(
        producer.send({ topic: `missing-${randomBytes(4).toString('hex')}`, messages: [{ value: 'x' }] }),
      ).rejects.toThrow();
    } finally {
      await producer.disconnect();
    }
    await flush();
    const refusals = lines.filter((l) => l.error === 'This server does not host this topic-partition');
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((l) => l.level === 20)).toBe(true);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 30_000);

  it('a real broker: two processes creating the same topic at once (every first start) log no ERROR', async () => {
    const { logger, lines } = capture();
    const topic = `same-${randomBytes(4).toString('hex')}`;
    const admins = [1, 2].map((n) =>
      createKafka({ clientId: `log-${n}`, brokers: testEndpoints().kafkaBrokers, logger }).admin(),
    );
    await Promise.all(admins.map((a) => a.connect()));
    try {
      // Without kafkajs' own wait for leaders, which gives up on the "does not host this
      // topic-partition" a busy broker answers for a moment after a creation (ensureTopics waits instead).
      const created = await Promise.all(
        admins.map((a) => a.createTopics({ topics: [{ topic }], waitForLeaders: false })),
      );
      expect(created.sort()).toEqual([false, true]); // one created it, the other found it there
    } finally {
      await Promise.all(admins.map((a) => a.disconnect()));
    }
    await flush();
    expect(lines.filter((l) => l.error === 'Topic creation errors').map((l) => l.level)).toEqual([20]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 30_000);
});
