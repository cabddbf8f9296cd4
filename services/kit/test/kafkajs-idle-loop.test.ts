import { setTimeout as sleep } from 'node:timers/promises';
import type { EventEnvelope } from '@decor/contracts';
import { createKafka, ensureTopics } from '../src/messaging';
import { type RequestQueueInternals as Queue, RequestQueue } from '../src/messaging/kafkajs-idle-loop';
import { RUN_ID, testEndpoints, topicEvents } from '../src/testing';

/** Counts the queue's checks of its pending requests, in every kafkajs connection of this process. */
function countChecks() {
  const proto = RequestQueue.prototype;
  const check = proto.checkPendingRequests;
  let calls = 0;
  proto.checkPendingRequests = function counted(this: Queue) {
    calls += 1;
    check.call(this);
  };
  const restore = () => {
    proto.checkPendingRequests = check;
  };
  return { calls: () => calls, restore };
}

describe("kafkajs' idle request-queue loop, stopped by createKafka", () => {
  const kafka = createKafka({ clientId: `${RUN_ID}-idle`, brokers: testEndpoints().kafkaBrokers });
  const topic = `${RUN_ID}.idle-loop`;
  const producer = kafka.producer();
  const admin = kafka.admin();

  beforeAll(async () => {
    await ensureTopics(kafka, [topic], { partitions: 1 });
    await Promise.all([producer.connect(), admin.connect()]);
  });
  afterAll(async () => {
    await Promise.all([producer.disconnect(), admin.disconnect()]);
  });

  it('an idle producer and admin do not wake their process (kafkajs 2.2.4 checked every millisecond)', async () => {
    await producer.send({ topic, messages: [{ value: JSON.stringify({ id: 'warm' }) }] }); // a connection to the leader too
    await sleep(200);
    const checks = countChecks();
    try {
      await sleep(1000);
      // Unpatched, each connection re-armed a 1 ms timer: several hundred checks a second each.
      expect(checks.calls()).toBeLessThan(20);
    } finally {
      checks.restore();
    }
  });

  it('after idling, a send still goes out at once and is read back', async () => {
    await sleep(1500);
    const id = `idle-${Date.now()}`;
    const started = Date.now();
    await producer.send({ topic, messages: [{ value: JSON.stringify({ id }) }] });
    expect(Date.now() - started).toBeLessThan(5000);
    const read = await topicEvents(kafka, topic, (events) => events.some((e) => e.id === id));
    expect(read.map((e: EventEnvelope) => e.id)).toContain(id);
  });

  it('still schedules a check when requests wait or the broker throttles, and none otherwise', () => {
    const queue = (fields: Partial<Queue>): Queue =>
      Object.assign(Object.create(RequestQueue.prototype) as Queue, {
        pending: [],
        throttledUntil: -1,
        throttleCheckTimeoutId: null,
        ...fields,
      });
    const scheduled = (q: Queue) => {
      q.scheduleCheckPendingRequests();
      const timer = q.throttleCheckTimeoutId;
      if (timer) clearTimeout(timer);
      return timer !== null;
    };
    expect(scheduled(queue({}))).toBe(false);
    expect(scheduled(queue({ pending: [{}] }))).toBe(true);
    expect(scheduled(queue({ throttledUntil: Date.now() + 500 }))).toBe(true);
  });
});
