import type { Kafka } from 'kafkajs';
import { EVENT_HEADERS } from '../messaging/kafka';
import type { KitLogger } from '../messaging/log';
import { startOwnGroupConsumer } from '../messaging/own-group-consumer';

/** The event that cleared a cache (for logs and tests). */
export interface InvalidatingEvent {
  type: string;
  correlationId: string;
}

export interface BroadcastInvalidationOptions {
  /** Who listens (a service name, 'gateway'); the consumer group is `<name>.cache.<uuid>`. */
  name: string;
  kafka: Kafka;
  /** The full topic name, e.g. `<prefix>.catalogue`. */
  topic: string;
  logger: KitLogger;
  /**
   * Event types that change no cached answer. Every other type, also one added later, clears the
   * cache: a stale answer costs more than a miss.
   */
  ignore?: (eventType: string) => boolean;
  /**
   * Clear the cache. `event` is the event that changed something; it is undefined for the clear
   * made when this process starts reading the topic (see `startBroadcastInvalidation`).
   */
  onInvalidate(event: InvalidatingEvent | undefined): void;
  /** Wait before trying again when the topic cannot be read (Kafka down, topic not created yet). Default 15 s. */
  retryMs?: number;
  /**
   * Hear events in batches up to this old (ms) rather than each at once (`startOwnGroupConsumer`'s
   * `batchWindowMs`): for a cache whose staleness may last a moment, a fetch a window instead of a
   * fetch per event on a busy topic. Default: none.
   */
  batchWindowMs?: number;
}

export interface BroadcastInvalidation {
  groupId: string;
  /** The last event that cleared the cache. */
  last?: InvalidatingEvent;
  /**
   * Settles with the first attempt to read the topic: true once this process reads it, false if
   * that failed (it keeps trying every `retryMs` in the background; the TTL applies meanwhile).
   */
  listening: Promise<boolean>;
  /** Whether the topic is being read now. */
  readonly isListening: boolean;
  /** How far it has read, per partition (the next offset; its group commits nothing to Kafka). */
  positions(): ReadonlyMap<number, string>;
  stop(): Promise<void>;
}

/**
 * Every process holding a cache must hear every event, so each reads the topic in a consumer group
 * of its own (`startOwnGroupConsumer`: the kit's consumers share one group per service, so each
 * event would reach only one instance). It keeps no state and deletes its group on shutdown. It does
 * not hold up start-up or /readyz: while it cannot read the topic, answers are at most one TTL old,
 * and the failure is logged.
 *
 * Joining leaves no gap: it notes the topic's end offsets first, then clears the cache, then reads
 * from those offsets (the reasoning is at `startOwnGroupConsumer`).
 */
export function startBroadcastInvalidation(opts: BroadcastInvalidationOptions): BroadcastInvalidation {
  const reader = startOwnGroupConsumer({
    name: `${opts.name}.cache`,
    kafka: opts.kafka,
    topic: opts.topic,
    logger: opts.logger,
    component: 'cache-invalidation',
    beforeReading: () => opts.onInvalidate(undefined),
    onMessage: (message) => {
      const type = message.headers?.[EVENT_HEADERS.type]?.toString() ?? '';
      if (opts.ignore?.(type)) return;
      const event = {
        type,
        correlationId: message.headers?.[EVENT_HEADERS.correlationId]?.toString() ?? '',
      };
      opts.onInvalidate(event);
      handle.last = event;
    },
    retryMs: opts.retryMs ?? 15_000,
    ...(opts.batchWindowMs ? { batchWindowMs: opts.batchWindowMs } : {}),
    logs: {
      unread: 'cached answers expire by TTL only until it can',
      crashed: 'cached answers expire by TTL only',
      readAgain: 'cached answers follow its events',
    },
  });
  const handle: BroadcastInvalidation = {
    groupId: reader.groupId,
    listening: reader.start(),
    get isListening() {
      return reader.isListening;
    },
    positions: () => reader.positions(),
    stop: () => reader.stop(),
  };
  return handle;
}
