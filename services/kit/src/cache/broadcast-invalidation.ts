import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import { EVENT_HEADERS, topicEndOffsets } from '../messaging/kafka';
import type { KitLogger } from '../messaging/log';

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
  stop(): Promise<void>;
}

/**
 * Every process holding a cache must hear every event, so each reads the topic in a consumer group
 * of its own (the kit's consumers share one group per service: each event would reach only one
 * instance). It keeps no state and deletes its group on shutdown so groups do not pile up in
 * Kafka. It does not hold up start-up or /readyz: while it cannot read the topic, answers are at
 * most one TTL old, and the failure is logged.
 *
 * Joining leaves no gap: it notes the topic's end offsets first, then clears the cache, then
 * reads from those offsets. An event below them was published, hence its write committed, before
 * the clear, so any answer stored after the clear was read after that write; every later event is
 * read. (A new group's "latest" position is only fixed at its first fetch, after `run()` returns,
 * so reading from "latest" could skip events published in between.)
 */
export function startBroadcastInvalidation(opts: BroadcastInvalidationOptions): BroadcastInvalidation {
  const groupId = `${opts.name}.cache.${randomUUID()}`;
  const log = opts.logger.child({ component: 'cache-invalidation', groupId, topic: opts.topic });
  const retryMs = opts.retryMs ?? 15_000;
  let consumer: Consumer | undefined;
  let attempt: Promise<boolean> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let listening = false;
  let joinedOnce = false;
  let failures = 0;
  let stopped = false;

  const join = async (): Promise<boolean> => {
    // A short fetch wait: shutdown waits for the fetch in flight, and an idle topic holds it that long.
    const c = opts.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
    consumer = c;
    try {
      const ends = await topicEndOffsets(opts.kafka, opts.topic);
      if (stopped) return false;
      opts.onInvalidate(undefined);
      await c.connect();
      await c.subscribe({ topic: opts.topic, fromBeginning: false });
      c.on(c.events.CRASH, ({ payload }) => {
        // kafkajs restarts by itself after retriable errors; after any other, join again.
        if (payload.restart || stopped) return;
        listening = false;
        log.error({ err: payload.error }, `stopped reading ${opts.topic}; cached answers expire by TTL only`);
        void c.disconnect().catch(() => {});
        scheduleJoin();
      });
      // run() resolves once the group is joined and partitions are assigned.
      await c.run({
        eachMessage: async ({ message }) => {
          const type = message.headers?.[EVENT_HEADERS.type]?.toString() ?? '';
          if (opts.ignore?.(type)) return;
          const event = {
            type,
            correlationId: message.headers?.[EVENT_HEADERS.correlationId]?.toString() ?? '',
          };
          opts.onInvalidate(event);
          handle.last = event;
        },
      });
      for (const { partition, offset } of ends) c.seek({ topic: opts.topic, partition, offset });
      listening = true;
      joinedOnce = true;
      if (failures > 0) log.info(`reading ${opts.topic} again: cached answers follow its events`);
      failures = 0;
      return true;
    } catch (err) {
      failures += 1;
      // The first failure is an error worth attention; the retries while it lasts are not news.
      const level = failures === 1 ? 'error' : 'warn';
      log[level]({ err }, `cannot read ${opts.topic}; cached answers expire by TTL only until it can`);
      await c.disconnect().catch(() => {});
      scheduleJoin();
      return false;
    }
  };

  const scheduleJoin = () => {
    if (stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      attempt = join();
    }, retryMs);
    retryTimer.unref();
  };

  attempt = join();
  const handle: BroadcastInvalidation = {
    groupId,
    listening: attempt,
    get isListening() {
      return listening;
    },
    stop,
  };
  return handle;

  async function stop(): Promise<void> {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    await attempt;
    listening = false;
    await consumer?.disconnect().catch(() => {});
    if (!joinedOnce) return;
    const admin = opts.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([groupId]);
    } catch (err) {
      log.debug({ err }, 'cache group not deleted (Kafka expires empty groups anyway)');
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }
}
