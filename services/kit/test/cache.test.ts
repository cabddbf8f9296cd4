/**
 * What the catalogue's own cache tests (services/catalogue/test/cache.test.ts) do not cover: the
 * options the gateway uses (keeping only some answers, refreshing past a stored answer), and the
 * broadcast invalidation on a real Kafka: the clear on joining, ignored types, a topic that does
 * not exist yet, Kafka out of reach, and the group removed on stop.
 */
import { randomBytes } from 'node:crypto';
import type { Kafka, Producer } from 'kafkajs';
import {
  type BroadcastInvalidation,
  type CachedAnswer,
  type InvalidatingEvent,
  ResponseCache,
  startBroadcastInvalidation,
} from '../src/cache';
import { createKafka, EVENT_HEADERS, ensureTopics, silentLogger } from '../src/messaging';
import { eventually, testEndpoints } from '../src/testing';

interface StatusAnswer extends CachedAnswer {
  status: number;
}

const answer = (status: number, body: string): StatusAnswer => ({ status, body, headers: {} });

describe('ResponseCache options', () => {
  it('keeps only the answers `store` accepts, still handing the others back', async () => {
    const cache = new ResponseCache<StatusAnswer>(10_000);
    const only200 = { store: (a: StatusAnswer) => a.status === 200 };
    let made = 0;
    const notFound = async () => answer(404, `missing ${++made}`);
    expect((await cache.get('k', notFound, only200)).body).toBe('missing 1');
    expect((await cache.get('k', notFound, only200)).body).toBe('missing 2');
    expect(cache.size).toBe(0);
    await cache.get('k', async () => answer(200, 'found'), only200);
    expect((await cache.get('k', notFound, only200)).body).toBe('found');
    expect(cache.size).toBe(1);
  });

  it('refresh skips the stored answer and reads in flight, and stores the new answer', async () => {
    const cache = new ResponseCache(10_000);
    await cache.get('k', async () => ({ body: 'old', headers: {} }));
    let release: () => void = () => {};
    const slow = cache.get('j', async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      return { body: 'slow', headers: {} };
    });
    const fresh = await cache.get('j', async () => ({ body: 'fresh j', headers: {} }), { refresh: true });
    expect(fresh.body).toBe('fresh j');
    release();
    await slow;
    expect((await cache.get('k', async () => ({ body: 'new', headers: {} }), { refresh: true })).body).toBe(
      'new',
    );
    expect((await cache.get('k', async () => ({ body: 'unused', headers: {} }))).body).toBe('new');
    expect(cache.enabled).toBe(true);
    expect(new ResponseCache(0).enabled).toBe(false);
  });
});

describe('broadcast invalidation on a real Kafka', () => {
  const run = `t${randomBytes(4).toString('hex')}`;
  const topic = `${run}.catalogue`;
  let kafka: Kafka;
  let producer: Producer;
  const started: BroadcastInvalidation[] = [];

  const start = (opts: { topic?: string; kafka?: Kafka; retryMs?: number } = {}) => {
    const seen: (InvalidatingEvent | undefined)[] = [];
    const handle = startBroadcastInvalidation({
      name: `${run}-listener`,
      kafka: opts.kafka ?? kafka,
      topic: opts.topic ?? topic,
      logger: silentLogger,
      ignore: (type) => type === 'TruckingFeeChanged',
      onInvalidate: (event) => seen.push(event),
      retryMs: opts.retryMs,
    });
    started.push(handle);
    return { handle, seen };
  };

  const publish = (to: string, type: string, correlationId: string) =>
    producer.send({
      topic: to,
      messages: [
        {
          key: 'k',
          value: '{}',
          headers: { [EVENT_HEADERS.type]: type, [EVENT_HEADERS.correlationId]: correlationId },
        },
      ],
    });

  beforeAll(async () => {
    kafka = createKafka({ clientId: `${run}-test`, brokers: testEndpoints().kafkaBrokers });
    await ensureTopics(kafka, [topic]);
    producer = kafka.producer();
    await producer.connect();
    await publish(topic, 'ProductUpserted', 'before-start');
  });

  afterAll(async () => {
    for (const handle of started) await handle.stop();
    await producer?.disconnect();
  });

  it('clears once on joining, then on every event but the ignored ones, in every listener', async () => {
    const a = start();
    const b = start();
    expect(await a.handle.listening).toBe(true);
    expect(await b.handle.listening).toBe(true);
    expect(a.handle.isListening).toBe(true);
    // The event published before it started is not read: the clear on joining covers it.
    expect(a.seen).toEqual([undefined]);
    expect(a.handle.groupId).not.toBe(b.handle.groupId);

    // Published right after joining: read, not skipped (the offsets were fixed before the clear).
    await publish(topic, 'ProductUpserted', 'first');
    await publish(topic, 'TruckingFeeChanged', 'ignored');
    await publish(topic, 'CategoryUpserted', 'second');
    for (const listener of [a, b]) {
      await eventually(
        async () => (listener.handle.last?.correlationId === 'second' ? true : undefined),
        10_000,
        'the second event',
      );
      expect(listener.seen).toEqual([
        undefined,
        { type: 'ProductUpserted', correlationId: 'first' },
        { type: 'CategoryUpserted', correlationId: 'second' },
      ]);
    }
  });

  it('deletes its consumer group on stop', async () => {
    const { handle } = start();
    expect(await handle.listening).toBe(true);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const groups = async () => (await admin.listGroups()).groups.map((g) => g.groupId);
      expect(await groups()).toContain(handle.groupId);
      await handle.stop();
      expect(handle.isListening).toBe(false);
      expect(await groups()).not.toContain(handle.groupId);
    } finally {
      await admin.disconnect();
    }
  });

  it('keeps trying while the topic does not exist, and reads it once it does', async () => {
    const later = `${run}.created-later`;
    const { handle, seen } = start({ topic: later, retryMs: 300 });
    expect(await handle.listening).toBe(false);
    expect(seen).toEqual([]);
    await ensureTopics(kafka, [later]);
    await eventually(async () => (handle.isListening ? true : undefined), 30_000, 'the listener to join');
    await publish(later, 'ProductUpserted', 'after-join');
    await eventually(
      async () => (handle.last?.correlationId === 'after-join' ? true : undefined),
      10_000,
      'the event',
    );
    expect(seen).toEqual([undefined, { type: 'ProductUpserted', correlationId: 'after-join' }]);
  }, 60_000);

  it('gives up quietly when Kafka is out of reach, and stops without waiting for it', async () => {
    const nowhere = createKafka({
      clientId: `${run}-nowhere`,
      brokers: ['127.0.0.1:9'],
      config: { connectionTimeout: 300, retry: { retries: 1, initialRetryTime: 100 } },
    });
    const { handle, seen } = start({ kafka: nowhere, retryMs: 60_000 });
    expect(await handle.listening).toBe(false);
    expect(handle.isListening).toBe(false);
    const stopping = Date.now();
    await handle.stop();
    expect(Date.now() - stopping).toBeLessThan(2_000);
    expect(seen).toEqual([]);
  });
});
