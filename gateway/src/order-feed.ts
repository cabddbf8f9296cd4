import { randomBytes, randomUUID } from 'node:crypto';
import { EstimateSubmitted, type EventEnvelope } from '@decor/contracts';
import { type KitLogger, topicEndOffsets } from '@decor/kit';
import type { Consumer, Kafka } from 'kafkajs';

/** What a stream tells about one order change: never the order itself (no lines, no customer). */
export interface OrderChange {
  /** The event type, e.g. 'InvoiceStatusChanged'. */
  type: string;
  orderType: 'estimate' | 'invoice';
  id: string;
  status: string;
  revision: number;
}

export interface FeedEntry {
  /** Position in this feed's epoch, from 1. */
  seq: number;
  /** When this instance read it (ms), for the buffer's age limit. */
  at: number;
  /** The envelope id (a redelivered event is dropped). */
  eventId: string;
  /** The customer the order belongs to: who, besides staff, may see it. */
  ownerId: string;
  change: OrderChange;
}

export interface FeedSubscriber {
  deliver(entry: FeedEntry): void;
  /** The feed may have missed events (it joined the topic again): the client must refetch. */
  resync(): void;
}

/**
 * The order change an event announces, or undefined for events that announce none. EstimateSubmitted
 * has its own shape; every later order event carries the order's state as `order` (OrderState, also
 * a type added later), of which only the identity, status and revision are taken.
 */
export function orderChangeOf(envelope: EventEnvelope): { ownerId: string; change: OrderChange } | undefined {
  const payload = envelope.payload as Record<string, unknown> | null;
  if (!payload || typeof payload !== 'object') return undefined;
  if (envelope.type === EstimateSubmitted.type) {
    const { estimateId, userId, status } = payload;
    if (typeof estimateId !== 'string' || typeof userId !== 'string' || typeof status !== 'string')
      return undefined;
    // A new estimate's state is revision 0 (every change adds one).
    return {
      ownerId: userId,
      change: { type: envelope.type, orderType: 'estimate', id: estimateId, status, revision: 0 },
    };
  }
  const order = payload.order as Record<string, unknown> | undefined;
  if (!order || typeof order !== 'object') return undefined;
  const { orderType, id, userId, status, revision } = order;
  if (
    (orderType !== 'estimate' && orderType !== 'invoice') ||
    typeof id !== 'string' ||
    typeof userId !== 'string' ||
    typeof status !== 'string' ||
    typeof revision !== 'number'
  ) {
    return undefined;
  }
  return { ownerId: userId, change: { type: envelope.type, orderType, id, status, revision } };
}

export interface OrderFeedOptions {
  kafka: Kafka;
  /** The full topic name, `<prefix>.order`. */
  topic: string;
  logger: KitLogger;
  /** Keep at most this many recent events for resuming… */
  bufferEvents: number;
  /** …and none older than this (ms). */
  bufferMs: number;
  /** Wait before trying again when the topic cannot be read. Default 5 s. */
  retryMs?: number;
  now?: () => number;
}

/**
 * The order topic as this gateway instance reads it, for the live-status streams
 * (src/order-stream.ts). It follows the kit's broadcast invalidation
 * (services/kit/src/cache/broadcast-invalidation.ts), which hands on only an event's type, so it is
 * written out here with the payload: every instance must see every event, so each reads the topic in
 * a consumer group of its own (`gateway.orders.<uuid>`, deleted on shutdown), joining at the
 * topic's end offsets noted first (nothing published after the join began is skipped), and joining
 * again on its own after a crash.
 *
 * Recent events are kept in a ring (at most `bufferEvents`, none older than `bufferMs`) so a client
 * reconnecting to this instance gets exactly what it missed. Positions are `<epoch>-<seq>`: the
 * epoch is random per join, so a position from another instance, from before a restart, or from
 * before a re-join (when events may have been missed) is recognised as unknown and answered with a
 * resync instead of a guess.
 */
export class OrderFeed {
  epoch = newEpoch();
  private head = 0;
  private ring: FeedEntry[] = [];
  private start = 0;
  private readonly ids = new Set<string>();
  private readonly subscribers = new Set<FeedSubscriber>();
  private readonly groupId = `gateway.orders.${randomUUID()}`;
  private readonly log: KitLogger;
  private readonly now: () => number;
  private consumer: Consumer | undefined;
  private attempt: Promise<boolean> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private listening = false;
  private joinedOnce = false;
  private failures = 0;
  private stopped = false;
  /** Events read (for tests and the bench). */
  received = 0;

  constructor(private readonly opts: OrderFeedOptions) {
    this.log = opts.logger.child({ component: 'order-feed', groupId: this.groupId, topic: opts.topic });
    this.now = opts.now ?? Date.now;
  }

  get isListening(): boolean {
    return this.listening;
  }

  get position(): string {
    return `${this.epoch}-${this.head}`;
  }

  /**
   * Starts reading the topic on the first call (the gateway reads it only once someone streams);
   * resolves true once it is read, false if the current attempt failed or `timeoutMs` passed
   * (it keeps trying in the background).
   */
  ready(timeoutMs: number): Promise<boolean> {
    if (this.listening) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    if (!this.attempt) this.attempt = this.join();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    // After a crash the last attempt has settled true, but the topic is not read until the next one.
    const joined = this.attempt.then(() => this.listening);
    return Promise.race([joined, timeout]).finally(() => clearTimeout(timer));
  }

  subscribe(subscriber: FeedSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * The entries after `position` (all viewers'), or undefined when this feed cannot tell what came
   * after it: another epoch (instance, restart, re-join), malformed, or older than the ring holds.
   */
  since(position: string): FeedEntry[] | undefined {
    const match = /^([a-z0-9]+)-(\d{1,15})$/.exec(position);
    if (!match || match[1] !== this.epoch) return undefined;
    const seq = Number(match[2]);
    this.trim();
    const oldest = this.ring[this.start]?.seq ?? this.head + 1;
    if (seq > this.head || seq < oldest - 1) return undefined;
    return this.ring.slice(this.start + (seq - (oldest - 1)));
  }

  get buffered(): number {
    return this.ring.length - this.start;
  }

  /** Adds an event read from the topic (public for tests of the ring). */
  push(envelope: EventEnvelope): FeedEntry | undefined {
    if (this.ids.has(envelope.id)) return undefined;
    const found = orderChangeOf(envelope);
    if (!found) return undefined;
    const entry: FeedEntry = { seq: ++this.head, at: this.now(), eventId: envelope.id, ...found };
    this.ring.push(entry);
    this.ids.add(envelope.id);
    this.trim();
    for (const s of this.subscribers) s.deliver(entry);
    return entry;
  }

  private trim(): void {
    const oldestAt = this.now() - this.opts.bufferMs;
    while (this.start < this.ring.length) {
      const first = this.ring[this.start] as FeedEntry;
      if (this.ring.length - this.start <= this.opts.bufferEvents && first.at >= oldestAt) break;
      this.ids.delete(first.eventId);
      this.start += 1;
    }
    // Compact now and then rather than shifting on every event.
    if (this.start > 1024 && this.start * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.start);
      this.start = 0;
    }
  }

  /** A new epoch: earlier positions become unknown, and open streams are told to refetch. */
  private newEpoch(): void {
    this.epoch = newEpoch();
    this.head = 0;
    this.ring = [];
    this.start = 0;
    this.ids.clear();
    for (const s of this.subscribers) s.resync();
  }

  private async join(): Promise<boolean> {
    const { kafka, topic } = this.opts;
    // A short fetch wait: shutdown waits for the fetch in flight. Low latency: no batching wait.
    const c = kafka.consumer({ groupId: this.groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
    this.consumer = c;
    try {
      const ends = await topicEndOffsets(kafka, topic);
      if (this.stopped) return false;
      await c.connect();
      await c.subscribe({ topic, fromBeginning: false });
      c.on(c.events.CRASH, ({ payload }) => {
        // kafkajs restarts by itself after retriable errors (from the committed offsets: redelivered
        // events are dropped by id); after any other, join again.
        if (payload.restart || this.stopped) return;
        this.listening = false;
        this.log.error(
          { err: payload.error },
          `stopped reading ${topic}; live order streams get nothing new`,
        );
        void c.disconnect().catch(() => {});
        this.scheduleJoin();
      });
      this.newEpoch();
      await c.run({
        eachMessage: async ({ message }) => {
          this.received += 1;
          let envelope: EventEnvelope;
          try {
            envelope = JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope;
          } catch {
            return;
          }
          if (envelope && typeof envelope.id === 'string') this.push(envelope);
        },
      });
      for (const { partition, offset } of ends) c.seek({ topic, partition, offset });
      this.listening = true;
      this.joinedOnce = true;
      if (this.failures > 0) this.log.info(`reading ${topic} again: live order streams resume`);
      this.failures = 0;
      return true;
    } catch (err) {
      this.failures += 1;
      const level = this.failures === 1 ? 'error' : 'warn';
      this.log[level]({ err }, `cannot read ${topic}; live order streams are refused until it can`);
      await c.disconnect().catch(() => {});
      this.scheduleJoin();
      return false;
    }
  }

  private scheduleJoin(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.attempt = this.join();
    }, this.opts.retryMs ?? 5_000);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.attempt;
    this.listening = false;
    await this.consumer?.disconnect().catch(() => {});
    if (!this.joinedOnce) return;
    const admin = this.opts.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([this.groupId]);
    } catch (err) {
      this.log.debug({ err }, 'order feed group not deleted (Kafka expires empty groups anyway)');
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }
}

function newEpoch(): string {
  return randomBytes(5).toString('hex');
}
