/**
 * At-least-once consumer with idempotent handling, in-process retries and a dead-letter topic.
 *
 * Guarantees and their limits:
 * - A batch of a partition at a time, its messages one after another (order within a partition is
 *   kept; a few partitions are handled side by side), except runs of events whose handlers say their
 *   effect depends on no other event's order (`eventHandler(…, { unordered: true })`), handled side
 *   by side. A handler error never escapes (it is retried, then dead-lettered); only infrastructure
 *   failures (Mongo down, DLQ publish failed) throw, and then the rest of the batch is not handled
 *   and kafkajs re-delivers it.
 * - Each handled event id is remembered per group in `processed_events` (`_id = groupId:eventId`),
 *   looked up for the whole batch before its handlers (one query) and written for the whole batch
 *   after them (one write, with the group's progress beside it). Remaining window: a crash after a
 *   handler's write and before the batch's record re-runs the handler on redelivery. So handlers must
 *   be idempotent: make state changes with `ctx.applyOnce(...)` (a conditional single-document update
 *   that records the event id in the same write) or with naturally idempotent writes (set, upsert by
 *   key, BullMQ job id derived from the event id). A handler whose effect is keyed by the event id on
 *   its own (`eventHandler(…, { idempotentForMs })`) is not looked up first for a recent event: a
 *   redelivery runs it again and its own key makes that a no-op. Events of a type without a handler are passed over by
 *   their `event-type` header, unparsed, with no record (nothing ran that a redelivery could repeat);
 *   the progress moves past them (for a batch of nothing else, within PASSED_PROGRESS_MS).
 * - Offsets are committed to Kafka at most once a second, after the batch's records are written; a
 *   crash or a rebalance therefore re-delivers up to a second of handled events, which their records
 *   skip.
 * - A handler failing because Redis, Mongo or Kafka is out of reach (see http/unavailable) is not
 *   retried against the attempts nor dead-lettered: it waits for the server, heartbeating.
 * - Handlers must be SHORT: retries (with heartbeats) happen inside the partition's processing, and a
 *   handler slower than the session timeout gets the member kicked and the group rebalancing in a
 *   loop. Slow or external work (e-mail, QuickBooks) goes to a BullMQ job (`enqueueOnce`).
 * - A crash the client will not restart from, too many restarts, or an unexpected stop/disconnect
 *   turns `isHealthy()` false, which the service's /readyz reports — never a silently dead consumer.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { EventContract, EventEnvelope } from '@decor/contracts';
import type { Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type {
  Consumer,
  ConsumerConfig,
  EachMessagePayload,
  IHeaders,
  Kafka,
  KafkaMessage,
  RetryOptions,
} from 'kafkajs';
import type { Connection, Model, UpdateQuery } from 'mongoose';
import type { Registry } from 'prom-client';
import { unavailableDependency } from '../http/unavailable';
import { consumerMetrics, type HandledOutcome } from '../metrics/kafka';
import { inSpan, SpanKind, TRACEPARENT_HEADER } from '../tracing/context';
import { EVENT_HEADERS, ensureTopics, type Publisher } from './kafka';
import { type KitLogger, silentLogger } from './log';

export const PROCESSED_EVENTS_COLLECTION = 'processed_events';
/** How often handled offsets are committed to Kafka (a crash re-reads at most this much, skipped). */
const COMMIT_INTERVAL_MS = 1000;
/** Partitions handled at once by default (order within each is kept). */
const DEFAULT_PARTITIONS_AT_ONCE = 3;
/**
 * How long the broker holds a fetch of an idle topic (kafkajs' default is 5 s). A stop waits out the
 * fetch in flight, so each service's stop waited up to 5 s for its idle consumers (2.4-5.5 s measured);
 * events still come back at once (a fetch returns as soon as one arrives): the cost is one empty
 * fetch a second per idle consumer.
 */
const FETCH_WAIT_MS = 1000;
/** Per group and partition, the highest offset handled; `waitForCatchUp` reads it. */
export const CONSUMER_PROGRESS_COLLECTION = 'consumer_progress';
/**
 * A batch the group only passed over (no handler for any of its events) has its progress written
 * within this long, together with other such batches' (one write), instead of at once: a topic busy
 * with events a group does not handle cost it a database write per batch. `waitForCatchUp` may wait
 * this much longer when the last events are such events. Written before offsets are committed.
 */
const PASSED_PROGRESS_MS = 50;

export function progressId(groupId: string, topic: string, partition: number): string {
  return `${groupId}|${topic}|${partition}`;
}

export interface EventContext {
  groupId: string;
  topic: string;
  partition: number;
  offset: string;
  /** 1 on the first try. */
  attempt: number;
  logger: KitLogger;
  heartbeat(): Promise<void>;
  /** `applyOnce` bound to this event's id. */
  applyOnce<T>(
    model: Model<T>,
    filter: Record<string, unknown>,
    update: UpdateQuery<T>,
    opts?: ApplyOnceOptions,
  ): Promise<boolean>;
}

export type EventHandler<P = unknown> = (envelope: EventEnvelope<P>, ctx: EventContext) => Promise<void>;

/** Thrown by a handler for bad data: no retries, straight to the dead-letter topic. */
export class PermanentEventError extends Error {
  override name = 'PermanentEventError';
}

export interface EventHandlerOptions {
  /**
   * For this long after an event occurred (ms), the handler's effect is keyed by the event id on its
   * own (e.g. a BullMQ job id derived from it, kept 7 days once completed), so running it again for
   * the same event changes nothing: the consumer does not look up whether such an event was handled
   * before running it (its record is still written after). An older event (a group reading the topic
   * again from its start) is looked up as any other.
   */
  idempotentForMs?: number;
  /**
   * The handler's effect does not depend on the order of other events: a run of such events in a
   * batch is handled side by side (up to UNORDERED_AT_ONCE at a time) rather than one after another,
   * so their writes travel together (several BullMQ adds in one round trip). Only with
   * `idempotentForMs`: an event handled after one that failed comes back, and runs again.
   */
  unordered?: boolean;
}

/** What `eventHandler` says of a handler (see EventHandlerOptions); plain handlers have nothing here. */
const handlerTraits = new WeakMap<EventHandler, EventHandlerOptions>();

/** Events of one batch handled side by side at most (see `unordered`). */
const UNORDERED_AT_ONCE = 32;

/**
 * A handler entry typed by its contract; the payload is checked against the contract's schema first
 * (a mismatch is permanent: dead-lettered without retries). Spread into `handlers`.
 */
export function eventHandler<C extends EventContract>(
  contract: C,
  handler: EventHandler<Static<C['payload']>>,
  options: EventHandlerOptions = {},
): Record<string, EventHandler> {
  const check = TypeCompiler.Compile(contract.payload);
  const entry: EventHandler = async (envelope, ctx) => {
    if (!check.Check(envelope.payload)) {
      const first = [...check.Errors(envelope.payload)][0];
      throw new PermanentEventError(
        `${contract.type} payload does not match the contract: ${first?.path || '/'}: ${first?.message}`,
      );
    }
    await handler(envelope as EventEnvelope<Static<C['payload']>>, ctx);
  };
  if (options.unordered && !options.idempotentForMs)
    throw new Error(`${contract.type}: an unordered handler must be idempotent (idempotentForMs)`);
  if (options.idempotentForMs) handlerTraits.set(entry, options);
  return { [contract.type]: entry };
}

export interface ApplyOnceOptions {
  /** How many recent event ids the document remembers. Default 100. */
  keep?: number;
  /**
   * Create the document if the filter matches none. Only with a filter on a UNIQUE key (e.g. `_id`):
   * then a repeat hits the duplicate key and counts as "already applied"; on a non-unique filter a
   * repeat would insert a second document.
   */
  upsert?: boolean;
}

/** Schema fields `applyOnce` needs: `schema.plugin(appliedEventsPlugin)`. */
export function appliedEventsPlugin(schema: import('mongoose').Schema): void {
  schema.add({ appliedEvents: { type: [String], default: [] } });
}

/**
 * A conditional single-document update applied at most once per event id: the filter excludes
 * documents that already list the id, and the same write appends it (capped with `$slice`). Returns
 * true if this call applied it. The model's schema needs `appliedEventsPlugin`.
 */
export async function applyOnce<T>(
  model: Model<T>,
  filter: Record<string, unknown>,
  update: UpdateQuery<T>,
  eventId: string,
  { keep = 100, upsert = false }: ApplyOnceOptions = {},
): Promise<boolean> {
  if (!model.schema.path('appliedEvents')) {
    throw new Error(`applyOnce: schema of ${model.modelName} lacks appliedEvents (use appliedEventsPlugin)`);
  }
  const push = { ...(update.$push ?? {}), appliedEvents: { $each: [eventId], $slice: -keep } };
  try {
    const res = await model.updateOne(
      { ...filter, appliedEvents: { $ne: eventId } },
      { ...update, $push: push },
      { upsert },
    );
    return res.modifiedCount + res.upsertedCount > 0;
  } catch (err) {
    // Upsert raced with (or followed) the write that already applied this event.
    if (upsert && (err as { code?: number }).code === 11000) return false;
    throw err;
  }
}

export interface StartConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  handlers: Record<string, EventHandler>;
  /** Mongoose connection of the service's database, for `processed_events`. */
  connection: Connection;
  /** In-process handler retries before dead-lettering. Default 3 attempts from 100 ms, capped 2 s. */
  retry?: { attempts?: number; initialMs?: number; maxMs?: number };
  /** Where poison messages go: `dlqTopicFor(prefix, groupId)` and a connected publisher. */
  dlq: { topic: string; publisher: Publisher; timeoutMs?: number };
  logger?: KitLogger;
  /** A new group starts at the oldest retained event (default true; duplicates are harmless). */
  fromBeginning?: boolean;
  /** Restarts after crashes before giving up (then unhealthy). Reset by any processed message. Default 5. */
  maxRestarts?: number;
  /** Partitions processed in parallel (order within a partition is kept). Default 3. */
  partitionsConsumedConcurrently?: number;
  /** kafkajs consumer settings (sessionTimeout, heartbeatInterval, …) and its retry policy. */
  consumerConfig?: Partial<Omit<ConsumerConfig, 'groupId' | 'retry'>>;
  kafkaRetry?: RetryOptions;
  /** Partitions for topics this call has to create. Default 6. */
  partitions?: number;
  /**
   * The process's metrics registry: `kafka_events_handled_total{group, type, outcome}` and
   * `kafka_consumer_lag{group, topic, partition}` (from each fetched batch's high watermark).
   */
  metrics?: Registry;
}

export type ConsumerState = 'starting' | 'running' | 'restarting' | 'crashed' | 'disconnected' | 'stopped';

export interface ConsumerHealth {
  groupId: string;
  state: ConsumerState;
  healthy: boolean;
  lastError?: string;
  /** topic → partitions this member holds (from the last group join). */
  assignment: Record<string, number[]>;
}

export interface ConsumerHandle {
  readonly consumer: Consumer;
  readonly groupId: string;
  isHealthy(): boolean;
  health(): ConsumerHealth;
  /** Finishes the message in flight, commits, leaves the group. */
  stop(): Promise<void>;
}

export interface ProcessedRecord {
  _id: string;
  groupId: string;
  eventId: string;
  type: string;
  aggregateId?: string;
  outcome: 'applied' | 'skipped' | 'dead-lettered';
  topic: string;
  partition: number;
  offset: string;
  processedAt: Date;
  error?: string;
}

export const DLQ_HEADERS = {
  error: 'dlq-error',
  attempts: 'dlq-attempts',
  topic: 'dlq-original-topic',
  partition: 'dlq-original-partition',
  offset: 'dlq-original-offset',
  groupId: 'dlq-group-id',
  failedAt: 'dlq-failed-at',
} as const;

export async function startConsumer(opts: StartConsumerOptions): Promise<ConsumerHandle> {
  const { kafka, groupId, topics, handlers, connection, dlq } = opts;
  const attempts = Math.max(1, opts.retry?.attempts ?? 3);
  const initialMs = opts.retry?.initialMs ?? 100;
  const maxMs = opts.retry?.maxMs ?? 2000;
  const maxRestarts = opts.maxRestarts ?? 5;
  const log = (opts.logger ?? silentLogger).child({ component: 'consumer', groupId });
  const processed = connection.collection<ProcessedRecord>(PROCESSED_EVENTS_COLLECTION);
  const progress = connection.collection<{ _id: string; offset: number }>(CONSUMER_PROGRESS_COLLECTION);

  let state: ConsumerState = 'starting';
  let stopping = false;
  let lastError: string | undefined;
  let restarts = 0;
  let assignment: Record<string, number[]> = {};
  const metrics = opts.metrics ? consumerMetrics(opts.metrics, groupId) : undefined;
  /** An event of a type the group has no handler for is passed over by its header, never parsed. */
  const readMessage = (message: KafkaMessage): Read => {
    const header = message.headers?.[EVENT_HEADERS.type];
    const type = (Array.isArray(header) ? header[0] : header)?.toString();
    if (type !== undefined && !handlers[type]) return { unhandled: type };
    return readEnvelope(message.value);
  };

  await ensureTopics(kafka, [...topics, dlq.topic], { partitions: opts.partitions ?? 6 });

  const consumer = kafka.consumer({
    maxWaitTimeInMs: FETCH_WAIT_MS,
    ...opts.consumerConfig,
    groupId,
    allowAutoTopicCreation: false,
    retry: {
      ...opts.kafkaRetry,
      // Exhausted restarts end in a CRASH with restart=false, which we report as unhealthy.
      restartOnFailure: async (err) => {
        restarts += 1;
        log.error({ err, restarts, maxRestarts }, 'consumer crashed');
        return restarts <= maxRestarts;
      },
    },
  });
  const { GROUP_JOIN, CRASH, STOP, DISCONNECT, START_BATCH_PROCESS } = consumer.events;
  consumer.on(GROUP_JOIN, ({ payload }) => {
    assignment = payload.memberAssignment;
    metrics?.assigned(assignment);
    state = 'running';
    log.debug({ assignment }, 'joined consumer group');
  });
  consumer.on(CRASH, ({ payload }) => {
    lastError = payload.error.message;
    state = payload.restart ? 'restarting' : 'crashed';
    if (!payload.restart) log.error({ err: payload.error }, 'consumer crashed for good; reporting unhealthy');
  });
  if (metrics) {
    consumer.on(START_BATCH_PROCESS, ({ payload: b }) =>
      metrics.batchStarted(b.topic, b.partition, b.highWatermark, b.firstOffset, b.lastOffset),
    );
  }
  consumer.on(STOP, () => {
    if (!stopping) state = 'stopped';
  });
  consumer.on(DISCONNECT, () => {
    if (!stopping && state !== 'crashed') state = 'disconnected';
  });

  /** Remembers handled events (one write for a batch's); an id recorded already counts as written. */
  async function record(recs: Omit<ProcessedRecord, '_id' | 'groupId' | 'processedAt'>[]): Promise<void> {
    if (recs.length === 0) return;
    const processedAt = new Date();
    try {
      await processed.insertMany(
        recs.map((rec) => ({ _id: `${groupId}:${rec.eventId}`, groupId, processedAt, ...rec })),
        { ordered: false },
      );
    } catch (err) {
      // Recorded by an earlier delivery: a duplicate key is fine, any other failure is not.
      const errors = (err as { writeErrors?: { code?: number }[]; code?: number }).writeErrors;
      const codes = errors?.map((e) => e.code) ?? [(err as { code?: number }).code];
      if (codes.some((code) => code !== 11000)) throw err;
    }
  }

  async function deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    error: unknown,
    tries: number,
  ): Promise<void> {
    const headers: IHeaders = {
      ...message.headers,
      [DLQ_HEADERS.error]: errorText(error),
      [DLQ_HEADERS.attempts]: String(tries),
      [DLQ_HEADERS.topic]: topic,
      [DLQ_HEADERS.partition]: String(partition),
      [DLQ_HEADERS.offset]: message.offset,
      [DLQ_HEADERS.groupId]: groupId,
      [DLQ_HEADERS.failedAt]: new Date().toISOString(),
    };
    const send = dlq.publisher.producer.send({
      topic: dlq.topic,
      acks: -1,
      messages: [{ key: message.key, value: message.value, headers }],
    });
    // If the DLQ cannot take it, throw: the offset stays uncommitted and the message comes back.
    await withTimeout(send, dlq.timeoutMs ?? 10_000, `dead-letter publish to ${dlq.topic}`);
    log.warn({ topic, partition, offset: message.offset, err: error, tries }, 'message dead-lettered');
  }

  await consumer.connect();
  for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: opts.fromBeginning ?? true });
  // Offsets go to Kafka at most once a second, off the batches' path (kafkajs' autoCommit would
  // commit after every batch, a round trip and a __consumer_offsets write per event at low rates).
  // Kafka's offset is only where a new member starts: an event handled but not yet committed comes
  // back after a crash or a rebalance and is skipped by its processed_events record.
  const commits = new Map<string, { topic: string; partition: number; offset: string }>();
  // Progress of batches passed over (see PASSED_PROGRESS_MS): progress id → offset, not yet written.
  const passed = new Map<string, number>();
  let passedTimer: NodeJS.Timeout | undefined;
  let passedWrite: Promise<boolean> = Promise.resolve(true);
  const passProgress = (id: string, offset: number) => {
    passed.set(id, Math.max(passed.get(id) ?? -1, offset));
    passedTimer ??= setTimeout(() => void flushPassed(), PASSED_PROGRESS_MS).unref();
  };
  /** Writes the passed-over batches' progress (one write for all); true once nothing is left unwritten. */
  const flushPassed = (): Promise<boolean> => {
    clearTimeout(passedTimer);
    passedTimer = undefined;
    const due = [...passed];
    passed.clear();
    if (due.length === 0) return passedWrite;
    passedWrite = passedWrite
      .then(() =>
        progress.bulkWrite(
          due.map(([_id, offset]) => ({
            updateOne: { filter: { _id }, update: { $max: { offset } }, upsert: true },
          })),
          { ordered: false },
        ),
      )
      .then(
        () => true,
        (err) => {
          log.debug({ err }, 'progress not written (tried again shortly)');
          for (const [id, offset] of due) passProgress(id, offset);
          return false;
        },
      );
    return passedWrite;
  };
  let commitTimer: NodeJS.Timeout | undefined;
  let commitFn:
    | ((offsets: {
        topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
      }) => Promise<void>)
    | undefined;
  let committing: Promise<void> = Promise.resolve();
  const flushCommits = (): Promise<void> => {
    clearTimeout(commitTimer);
    commitTimer = undefined;
    const due = [...commits.values()];
    commits.clear();
    const send = commitFn;
    if (due.length === 0 || !send) return committing;
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const c of due)
      byTopic.set(c.topic, [...(byTopic.get(c.topic) ?? []), { partition: c.partition, offset: c.offset }]);
    committing = committing
      .then(async () => {
        // Progress first: an offset committed past progress never written would, after a crash,
        // leave waitForCatchUp short of events no one delivers again.
        if (!(await flushPassed())) {
          for (const c of due) {
            const key = `${c.topic}|${c.partition}`;
            if (!commits.has(key)) commits.set(key, c);
          }
          commitTimer ??= setTimeout(() => void flushCommits(), COMMIT_INTERVAL_MS).unref();
          return;
        }
        await send({ topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) });
      })
      .catch((err) => log.debug({ err }, 'offset commit failed (the events come back and are skipped)'));
    return committing;
  };
  // A rebalance hands partitions to other members, which start from the committed offsets.
  consumer.on(consumer.events.REBALANCING, () => void flushCommits());
  consumer.on(GROUP_JOIN, ({ payload }) => {
    // Partitions this member no longer holds: their new owner commits them.
    for (const [key, c] of commits)
      if (!payload.memberAssignment[c.topic]?.includes(c.partition)) commits.delete(key);
  });

  await consumer.run({
    autoCommit: false,
    // Offsets are resolved one by one below: a batch left early (stopping, a seek) is not skipped.
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS_AT_ONCE,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }) => {
      const { topic, partition } = batch;
      commitFn = commitOffsetsIfNecessary as typeof commitFn;
      const messages = batch.messages.map((message) => ({ message, envelope: readMessage(message) }));
      // One duplicate query for the batch, only for the events this group has a handler for that
      // needs it (a recent event of an idempotent one is run again harmlessly).
      const now = Date.now();
      const done = await alreadyProcessed(
        messages.flatMap(({ envelope }) => {
          if (!isEnvelope(envelope)) return [];
          const handler = handlers[envelope.type];
          if (!handler) return [];
          const forMs = handlerTraits.get(handler)?.idempotentForMs;
          return forMs && now - Date.parse(envelope.occurredAt) < forMs ? [] : [envelope.id];
        }),
      );
      const unordered = (read: Read | undefined) => {
        const handler = read && isEnvelope(read) ? handlers[read.type] : undefined;
        return handler !== undefined && handlerTraits.get(handler)?.unordered === true;
      };
      const recs: Omit<ProcessedRecord, '_id' | 'groupId' | 'processedAt'>[] = [];
      let last: string | undefined;
      // Whatever the outcome (applied, skipped, dead-lettered), these offsets are behind us now: one
      // write of the batch's records and one of its progress, side by side (a batch passed over
      // entirely has no records, and its progress goes with other such batches': PASSED_PROGRESS_MS).
      const remember = async () => {
        if (last === undefined) return;
        // Nothing was handled: its progress goes a moment later with other such batches' (one write).
        if (recs.length === 0) return passProgress(progressId(groupId, topic, partition), Number(last));
        await Promise.all([
          record(recs),
          progress.updateOne(
            { _id: progressId(groupId, topic, partition) },
            { $max: { offset: Number(last) } },
            { upsert: true },
          ),
        ]);
      };
      try {
        for (let i = 0; i < messages.length; ) {
          if (!isRunning() || isStale()) break;
          // One event, or a run of events whose handlers may go side by side (`unordered`).
          let end = i + 1;
          if (unordered(messages[i]?.envelope))
            while (end < messages.length && end - i < UNORDERED_AT_ONCE && unordered(messages[end]?.envelope))
              end += 1;
          const run = messages.slice(i, end);
          const results = await Promise.allSettled(
            run.map(({ message, envelope }) =>
              handleMessage({ topic, partition, message, heartbeat }, envelope, done),
            ),
          );
          // In offset order; what follows a failure comes back (its handlers are idempotent).
          for (const [k, result] of results.entries()) {
            if (result.status === 'rejected') throw result.reason;
            const { message } = run[k] as (typeof run)[number];
            const { type, outcome, rec } = result.value;
            if (rec) recs.push(rec);
            resolveOffset(message.offset);
            last = message.offset;
            metrics?.handled(type, outcome);
          }
          i = end;
          await heartbeat(); // sent only when due: a long batch keeps the member in the group
        }
      } catch (err) {
        // What was handled before the failure stays handled; the rest comes back.
        await remember().catch(() => {});
        throw err;
      }
      if (last === undefined) return;
      await remember();
      metrics?.processed(topic, partition, last);
      commits.set(`${topic}|${partition}`, { topic, partition, offset: String(BigInt(last) + 1n) });
      if (stopping) await flushCommits();
      else commitTimer ??= setTimeout(() => void flushCommits(), COMMIT_INTERVAL_MS).unref();
    },
  });

  /** The ids among `eventIds` this group has handled already. */
  async function alreadyProcessed(eventIds: string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const ids = eventIds.map((id) => `${groupId}:${id}`);
    const found = await processed
      .find(ids.length === 1 ? { _id: ids[0] as string } : { _id: { $in: ids } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(found.map((r) => r._id.slice(groupId.length + 1)));
  }

  /**
   * Handles one message: what it was, what became of it (for the metrics) and what to remember of
   * it. `done`: the event ids handled already (read at the batch's start, added to as it goes).
   */
  async function handleMessage(
    {
      topic,
      partition,
      message,
      heartbeat,
    }: Pick<EachMessagePayload, 'topic' | 'partition' | 'message' | 'heartbeat'>,
    read: Read,
    done: Set<string>,
  ): Promise<{
    type: string;
    outcome: HandledOutcome;
    rec?: Omit<ProcessedRecord, '_id' | 'groupId' | 'processedAt'>;
  }> {
    if (read instanceof Error) {
      await deadLetter(topic, partition, message, read, 0); // unreadable: no id to remember
      restarts = 0;
      return { type: UNREADABLE_TYPE, outcome: 'dead-lettered' };
    }
    if (!isEnvelope(read)) {
      // A type this group has no handler for (by its header): passed over unread.
      restarts = 0;
      return { type: read.unhandled, outcome: 'skipped' };
    }
    const envelope = read;
    const { type } = envelope;
    const base = {
      eventId: envelope.id,
      type: envelope.type,
      aggregateId: envelope.aggregateId,
      topic,
      partition,
      offset: message.offset,
    };
    const handler = handlers[envelope.type];
    if (!handler) {
      // Nothing to remember: no handler ran, and the group's progress shows it was passed.
      restarts = 0;
      return { type, outcome: 'skipped' };
    }
    if (done.has(envelope.id)) {
      log.debug({ eventId: envelope.id }, 'duplicate event skipped');
      restarts = 0;
      return { type, outcome: 'skipped' };
    }
    done.add(envelope.id);
    let failure: unknown;
    let tries = 0;
    let outageWaits = 0;
    while (tries < attempts) {
      tries += 1;
      const ctx: EventContext = {
        groupId,
        topic,
        partition,
        offset: message.offset,
        attempt: tries,
        logger: log.child({ eventId: envelope.id, correlationId: envelope.correlationId }),
        heartbeat,
        applyOnce: (model, filter, update, o) => applyOnce(model, filter, update, envelope.id, o),
      };
      try {
        await handleTraced(message, envelope, tries, () => handler(envelope, ctx));
        failure = undefined;
        break;
      } catch (err) {
        failure = err;
        if (unavailableDependency(err)) {
          // Redis, Mongo or Kafka away: not the event's fault. Wait it out here, heartbeating, rather
          // than dead-letter it; on stop, leave it uncommitted for the next delivery.
          if (stopping) throw err;
          outageWaits += 1;
          if (outageWaits % 10 === 1)
            log.warn(
              { err, eventId: envelope.id, type: envelope.type },
              'event handler waits for a dependency',
            );
          tries -= 1;
          await delay(Math.min(maxMs, initialMs * 2 ** Math.min(outageWaits, 10)));
          await heartbeat();
          continue;
        }
        log.warn({ err, eventId: envelope.id, type: envelope.type, attempt: tries }, 'event handler failed');
        if (err instanceof PermanentEventError) break;
        if (tries < attempts) {
          const max = Math.min(maxMs, initialMs * 2 ** (tries - 1));
          await delay(max / 2 + Math.random() * (max / 2)); // exponential with jitter
          await heartbeat();
        }
      }
    }
    restarts = 0;
    if (failure === undefined) return { type, outcome: 'applied', rec: { ...base, outcome: 'applied' } };
    await deadLetter(topic, partition, message, failure, tries);
    return {
      type,
      outcome: 'dead-lettered',
      rec: { ...base, outcome: 'dead-lettered', error: errorText(failure) },
    };
  }

  return {
    consumer,
    groupId,
    isHealthy: () => state === 'running',
    health: () => ({ groupId, state, healthy: state === 'running', lastError, assignment }),
    stop: async () => {
      stopping = true;
      await flushCommits();
      await flushPassed();
      await consumer.disconnect();
      state = 'stopped';
      metrics?.stop();
    },
  };
}

/** The `type` label of a message that is not an event envelope (dead-lettered unread). */
export const UNREADABLE_TYPE = '(unreadable)';

/** A message as read: its envelope, why it is not one, or the type of an event passed over unread. */
type Read = EventEnvelope | Error | { unhandled: string };

const isEnvelope = (read: Read): read is EventEnvelope => !(read instanceof Error) && !('unhandled' in read);

/** The envelope, or why the message is not one. */
function readEnvelope(value: Buffer | null): EventEnvelope | Error {
  try {
    return parseEnvelope(value);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function parseEnvelope(value: Buffer | null): EventEnvelope {
  if (!value) throw new Error('empty message value');
  const e = JSON.parse(value.toString('utf8')) as Partial<EventEnvelope>;
  if (typeof e?.id !== 'string' || typeof e.type !== 'string' || e.payload === undefined) {
    throw new Error('message is not an event envelope (needs id, type, payload)');
  }
  return e as EventEnvelope;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/** Runs a handler in the trace its event carries (a Kafka header); untraced events run as they are. */
function handleTraced(
  message: KafkaMessage,
  envelope: EventEnvelope,
  attempt: number,
  run: () => Promise<void>,
): Promise<void> {
  const header = message.headers?.[TRACEPARENT_HEADER];
  const parent = (Array.isArray(header) ? header[0] : header)?.toString() ?? envelope.traceparent;
  if (!parent) return run();
  return inSpan(
    `handle ${envelope.type}`,
    { kind: SpanKind.CONSUMER, parent, attributes: { 'event.id': envelope.id, 'event.attempt': attempt } },
    run,
  );
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
