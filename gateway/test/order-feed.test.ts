/**
 * The order feed's ring (src/order-feed.ts) without Kafka: what an event tells, redelivery, and which
 * positions it can resume from as it fills and ages.
 */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@decor/contracts';
import { silentLogger } from '@decor/kit';
import type { Kafka } from 'kafkajs';
import { type FeedEntry, OrderFeed, orderChangeOf } from '../src/order-feed';

let clock = 1_000_000;
const feedOf = (bufferEvents = 5, bufferMs = 60_000) =>
  new OrderFeed({
    kafka: {} as Kafka,
    topic: 'test.order',
    logger: silentLogger,
    bufferEvents,
    bufferMs,
    now: () => clock,
  });

const envelope = (type: string, payload: unknown, id = randomUUID()): EventEnvelope => ({
  id,
  type,
  version: 1,
  aggregateType: 'order',
  aggregateId: 'o1',
  occurredAt: new Date(clock).toISOString(),
  correlationId: 'c',
  payload,
});

const statusChanged = (n: number, userId = 'u1') =>
  envelope('EstimateStatusChanged', {
    order: {
      orderType: 'estimate',
      id: `e${n}`,
      userId,
      status: 'Open',
      revision: n,
      lines: [{ secret: true }],
    },
    from: 'Pending',
    actor: { role: 'staff', userId: null },
  });

const seqs = (entries: FeedEntry[] | undefined) => entries?.map((e) => e.seq);

describe('the order feed', () => {
  it('takes identity, status and revision from EstimateSubmitted and every OrderState-carrying event', () => {
    expect(
      orderChangeOf(
        envelope('EstimateSubmitted', {
          estimateId: 'e1',
          userId: 'u1',
          status: 'Pending',
          lines: [],
          docNumber: '1',
        }),
      ),
    ).toEqual({
      ownerId: 'u1',
      change: { type: 'EstimateSubmitted', orderType: 'estimate', id: 'e1', status: 'Pending', revision: 0 },
    });
    expect(orderChangeOf(statusChanged(3, 'u2'))).toEqual({
      ownerId: 'u2',
      change: { type: 'EstimateStatusChanged', orderType: 'estimate', id: 'e3', status: 'Open', revision: 3 },
    });
    // A later event type with the order's state is streamed too; events without one are not.
    expect(
      orderChangeOf(
        envelope('InvoicePaid', {
          order: { orderType: 'invoice', id: 'i1', userId: 'u1', status: 'Completed', revision: 9 },
        }),
      )?.change,
    ).toMatchObject({ type: 'InvoicePaid', orderType: 'invoice', revision: 9 });
    expect(orderChangeOf(envelope('SomethingElse', { orderId: 'x' }))).toBeUndefined();
    expect(orderChangeOf(envelope('EstimateUpdated', { order: { id: 'x' } }))).toBeUndefined();
    expect(orderChangeOf(envelope('EstimateUpdated', null))).toBeUndefined();
  });

  it('drops a redelivered event and hands each new one to subscribers', () => {
    const feed = feedOf();
    const got: number[] = [];
    const unsubscribe = feed.subscribe({ deliver: (e) => got.push(e.seq), resync: () => {} });
    const once = statusChanged(1);
    feed.push(once);
    feed.push(once);
    feed.push(statusChanged(2));
    expect(got).toEqual([1, 2]);
    unsubscribe();
    feed.push(statusChanged(3));
    expect(got).toEqual([1, 2]);
  });

  it('resumes from any position it still holds, and from none it does not', () => {
    const feed = feedOf(5);
    const at = (seq: number) => `${feed.epoch}-${seq}`;
    expect(feed.since(at(0))).toEqual([]);
    for (let n = 1; n <= 3; n++) feed.push(statusChanged(n));
    expect(seqs(feed.since(at(0)))).toEqual([1, 2, 3]);
    expect(seqs(feed.since(at(2)))).toEqual([3]);
    expect(feed.since(at(3))).toEqual([]);
    expect(feed.since(at(4))).toBeUndefined(); // ahead of the feed: not from this epoch's history
    // Five kept: after eight events, positions 3..8 can resume (3 means "seen 3, send 4..8").
    for (let n = 4; n <= 8; n++) feed.push(statusChanged(n));
    expect(feed.buffered).toBe(5);
    expect(seqs(feed.since(at(3)))).toEqual([4, 5, 6, 7, 8]);
    expect(feed.since(at(2))).toBeUndefined();
    expect(feed.since(`ffffffffff-3`)).toBeUndefined();
    expect(feed.since('3')).toBeUndefined();
    expect(feed.position).toBe(at(8));
  });

  it('forgets events older than its time window', () => {
    const feed = feedOf(100, 10_000);
    const at = (seq: number) => `${feed.epoch}-${seq}`;
    feed.push(statusChanged(1));
    clock += 6_000;
    feed.push(statusChanged(2));
    clock += 6_000;
    expect(feed.since(at(0))).toBeUndefined();
    expect(seqs(feed.since(at(1)))).toEqual([2]);
    clock += 6_000;
    expect(feed.since(at(1))).toBeUndefined();
    expect(feed.since(at(2))).toEqual([]);
  });

  it('keeps its ring bounded over many events', () => {
    const feed = feedOf(1_000, 3_600_000);
    for (let n = 1; n <= 20_000; n++) feed.push(statusChanged(n));
    expect(feed.buffered).toBe(1_000);
    expect(seqs(feed.since(`${feed.epoch}-19998`))).toEqual([19_999, 20_000]);
  });
});
