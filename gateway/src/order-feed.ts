import { randomBytes } from 'node:crypto';
import { EstimateSubmitted, type EventEnvelope, type OrderChange } from '@decor/contracts';
import { type KitLogger, type OwnGroupConsumer, startOwnGroupConsumer } from '@decor/kit';
import type { Kafka } from 'kafkajs';

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
 * (src/order-stream.ts). Every instance must see every event, so each reads the topic in a consumer
 * group of its own (the kit's `startOwnGroupConsumer`, as the cache invalidation does:
 * `gateway.orders.<uuid>`, deleted on shutdown), joining at the topic's end offsets noted first
 * (nothing published after the join began is skipped), and joining again on its own after a crash.
 * It reads only once someone streams.
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
  private readonly now: () => number;
  private readonly reader: OwnGroupConsumer;
  /** Events read (for tests and the bench). */
  received = 0;

  constructor(private readonly opts: OrderFeedOptions) {
    this.now = opts.now ?? Date.now;
    this.reader = startOwnGroupConsumer({
      name: 'gateway.orders',
      kafka: opts.kafka,
      topic: opts.topic,
      logger: opts.logger,
      component: 'order-feed',
      // Each join may have missed events: a new epoch makes every earlier position unknown.
      beforeReading: () => this.newEpoch(),
      // kafkajs restarts by itself after retriable errors, from the committed offsets: redelivered
      // events are dropped by id (push).
      onMessage: (message) => {
        this.received += 1;
        let envelope: EventEnvelope;
        try {
          envelope = JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope;
        } catch {
          return;
        }
        if (envelope && typeof envelope.id === 'string') this.push(envelope);
      },
      retryMs: opts.retryMs ?? 5_000,
      logs: {
        unread: 'live order streams are refused until it can',
        crashed: 'live order streams get nothing new',
        readAgain: 'live order streams resume',
      },
    });
  }

  get isListening(): boolean {
    return this.reader.isListening;
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
    if (this.reader.isListening) return Promise.resolve(true);
    const attempt = this.reader.start(); // false at once after stop()
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    // After a crash the last attempt has settled true, but the topic is not read until the next one.
    const joined = attempt.then(() => this.reader.isListening);
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

  stop(): Promise<void> {
    return this.reader.stop();
  }
}

function newEpoch(): string {
  return randomBytes(5).toString('hex');
}
