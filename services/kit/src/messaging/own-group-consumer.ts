import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { topicEndOffsets } from './kafka';
import type { KitLogger } from './log';

/** Where a partition is read from. */
export interface PartitionOffset {
  partition: number;
  offset: string;
}

export interface OwnGroupConsumerOptions {
  /** The consumer group is `<name>.<uuid>`, e.g. `gateway.orders.<uuid>`. */
  name: string;
  kafka: Kafka;
  /** The full topic name. */
  topic: string;
  logger: KitLogger;
  /** The `component` of its log lines (which also name the group and the topic). */
  component: string;
  /**
   * Where each partition is read from, asked again on every join. Default: the topic's end offsets
   * (only what is published from now on).
   */
  startFrom?: (kafka: Kafka, topic: string) => Promise<PartitionOffset[]>;
  /**
   * Run on every join once the start offsets are known, just before reading begins (e.g. to clear
   * a cache, or to forget what a previous join read: events may have been missed in between).
   */
  beforeReading?: () => void;
  onMessage(message: KafkaMessage): Promise<void> | void;
  /**
   * Hear events in batches at most one fetch per window (ms) instead of each as it comes: after a
   * fetch that brought events, the next waits until the window has passed. Every group reading a
   * topic costs the broker a fetch per event otherwise; for a reader whose news can wait a moment
   * (ended sessions) that is most of its cost. The first event after a quiet spell is heard at once.
   * A fetch's partitions are then handled side by side (each in order). Default: none (each event at
   * once, one partition after another).
   */
  batchWindowMs?: number;
  /** Wait before trying again when the topic cannot be read (Kafka down, topic not created yet). */
  retryMs: number;
  /**
   * What not reading the topic means for this process, for its log lines: "cannot read <topic>;
   * <unread>" (a join failed), "stopped reading <topic>; <crashed>" (it crashed) and "reading <topic>
   * again: <readAgain>".
   */
  logs: { unread: string; crashed: string; readAgain: string };
}

export interface OwnGroupConsumer {
  groupId: string;
  /** Its logger (component, groupId and topic bound). */
  log: KitLogger;
  /**
   * Starts reading on the first call; answers the current attempt: true once the topic is read,
   * false if that attempt failed (it keeps trying every `retryMs` in the background). After a crash
   * the last attempt may have settled true while the topic is not read: see `isListening`. After
   * `stop()`, false.
   */
  start(): Promise<boolean>;
  /** Whether the topic is being read now. */
  readonly isListening: boolean;
  /**
   * The next offset to read per partition (what it has read up to). Kept in memory only — the group
   * commits nothing to Kafka — so this, not the group's committed offsets, says how far it has read.
   */
  positions(): ReadonlyMap<number, string>;
  /**
   * Stops reading and deletes the group. It waits at most 2 s for an attempt in flight (against a
   * Kafka out of reach one may take seconds); a join that completes after this sees it was stopped
   * and leaves again.
   */
  stop(): Promise<void>;
}

/**
 * How long the broker holds a fetch of an idle topic. A stop waits out the fetch in flight, as for the
 * kit's shared groups (consumer.ts, 1 s); events still come at once, since a fetch returns as soon as
 * one arrives. A shorter wait only adds empty fetches on a quiet topic (200 ms: five a second).
 */
const IDLE_FETCH_WAIT_MS = 1_000;
/** Batches handled at once by a windowed reader: more than any topic of ours has partitions. */
const BATCHES_AT_ONCE = 32;

/**
 * The wait a windowed reader's batches end with: the first batch after the window has passed opens a
 * new one, and every batch of the same fetch waits for it, so the next fetch leaves `ms` after the
 * last one that brought events (kafkajs fetches again once all of a fetch's batches are handled).
 */
function fetchWindow(ms: number): () => Promise<void> {
  let closes = 0;
  let open: Promise<void> = Promise.resolve();
  return () => {
    const now = Date.now();
    if (now >= closes) {
      closes = now + ms;
      open = new Promise((resolve) => setTimeout(resolve, ms));
    }
    return open;
  };
}

/**
 * Reads a topic in a consumer group of its own, for when every process must hear every event (the
 * kit's consumers, `startConsumer`, share one group per service: each event reaches only one
 * instance). It keeps no state and deletes its group on shutdown so groups do not pile up in
 * Kafka. It never holds up start-up: while it cannot read the topic it logs once as an error, then
 * as warnings, and tries again every `retryMs`. kafkajs restarts by itself after retriable errors;
 * after any other crash it joins again.
 *
 * Joining leaves no gap: it notes the start offsets first (by default the topic's end offsets),
 * then runs `beforeReading` (e.g. clears a cache), then reads from those offsets. An event below them
 * was published, hence its write committed, before that hook ran, so anything the hook clears and is
 * then stored again was read after that write; every later event is read. (A new group's "latest"
 * position is only fixed at its first fetch, after `run()` returns, so reading from "latest" could
 * skip events published in between.)
 */
export function startOwnGroupConsumer(opts: OwnGroupConsumerOptions): OwnGroupConsumer {
  const { kafka, topic } = opts;
  const groupId = `${opts.name}.${randomUUID()}`;
  const log = opts.logger.child({ component: opts.component, groupId, topic });
  const startFrom = opts.startFrom ?? topicEndOffsets;
  let consumer: Consumer | undefined;
  let attempt: Promise<boolean> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let listening = false;
  let joinedOnce = false;
  let failures = 0;
  let stopped = false;
  let readTo = new Map<number, string>();

  const batchWindow = opts.batchWindowMs ? fetchWindow(opts.batchWindowMs) : undefined;

  const join = async (): Promise<boolean> => {
    const c = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: IDLE_FETCH_WAIT_MS });
    consumer = c;
    try {
      const from = await startFrom(kafka, topic);
      if (stopped) return false;
      await c.connect();
      await c.subscribe({ topic, fromBeginning: false });
      // Where this process has read to, per partition: a join kafkajs makes by itself (a restart after
      // a retriable error, a rebalance) resumes there. Nothing is committed to Kafka: the group is
      // this process's alone and starts from `from` on every join of ours, so a commit after every
      // batch (kafkajs' autoCommit) would be a write to __consumer_offsets per event per process.
      const position = new Map<number, string>();
      readTo = position;
      c.on(c.events.GROUP_JOIN, () => {
        for (const [partition, offset] of position) c.seek({ topic, partition, offset });
      });
      c.on(c.events.CRASH, ({ payload }) => {
        // kafkajs restarts by itself after retriable errors; after any other, join again.
        if (payload.restart || stopped) return;
        listening = false;
        log.error({ err: payload.error }, `stopped reading ${topic}; ${opts.logs.crashed}`);
        void c.disconnect().catch(() => {});
        scheduleJoin();
      });
      opts.beforeReading?.();
      // run() resolves once the group is joined and partitions are assigned.
      await c.run({
        autoCommit: false,
        // A fetch's batches (one per partition) at once, so they wait out one window together.
        partitionsConsumedConcurrently: batchWindow ? BATCHES_AT_ONCE : 1,
        eachBatch: async ({ batch, resolveOffset, isRunning, isStale }) => {
          for (const message of batch.messages) {
            if (!isRunning() || isStale()) return;
            await opts.onMessage(message);
            position.set(batch.partition, String(BigInt(message.offset) + 1n));
            resolveOffset(message.offset);
          }
          await batchWindow?.();
        },
      });
      for (const { partition, offset } of from) {
        c.seek({ topic, partition, offset });
        position.set(partition, offset);
      }
      joinedOnce = true;
      if (stopped) {
        await c.disconnect().catch(() => {});
        return false;
      }
      listening = true;
      if (failures > 0) log.info(`reading ${topic} again: ${opts.logs.readAgain}`);
      failures = 0;
      return true;
    } catch (err) {
      await c.disconnect().catch(() => {});
      if (stopped) return false;
      failures += 1;
      // The first failure is an error worth attention; the retries while it lasts are not news.
      const level = failures === 1 ? 'error' : 'warn';
      log[level]({ err }, `cannot read ${topic}; ${opts.logs.unread}`);
      scheduleJoin();
      return false;
    }
  };

  const scheduleJoin = () => {
    if (stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      attempt = join();
    }, opts.retryMs);
    retryTimer.unref();
  };

  const stop = async (): Promise<void> => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([attempt, new Promise((r) => (timer = setTimeout(r, 2_000)))]);
    clearTimeout(timer);
    listening = false;
    await consumer?.disconnect().catch(() => {});
    if (!joinedOnce) return;
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([groupId]);
    } catch (err) {
      log.debug({ err }, 'group not deleted (Kafka expires empty groups anyway)');
    } finally {
      await admin.disconnect().catch(() => {});
    }
  };

  return {
    groupId,
    log,
    start() {
      if (stopped) return Promise.resolve(false);
      if (!attempt) attempt = join();
      return attempt;
    },
    get isListening() {
      return listening;
    },
    positions: () => new Map(readTo),
    stop,
  };
}
