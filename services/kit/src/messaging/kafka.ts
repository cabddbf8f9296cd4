import type { AggregateType, EventEnvelope } from '@decor/contracts';
import {
  type Admin,
  Kafka,
  type KafkaConfig,
  logLevel,
  type Message,
  Partitioners,
  type Producer,
  type RetryOptions,
} from 'kafkajs';
import { SpanKind, startSpan, TRACEPARENT_HEADER } from '../tracing/context';
import { stopKafkajsIdleLoop } from './kafkajs-idle-loop';
import { kafkajsLogCreator } from './kafkajs-log';
import { type KitLogger, silentLogger } from './log';
import { fetchTopicOffsets } from './topic-offsets';

export interface CreateKafkaOptions {
  clientId: string;
  brokers: string[];
  logger?: KitLogger;
  /** Passed through to kafkajs (connection/request timeouts, retry). */
  config?: Omit<KafkaConfig, 'clientId' | 'brokers' | 'logCreator' | 'logLevel'>;
}

/**
 * A kafkajs client whose own logs go to our pino logger (kafkajs-log.ts: routine and retried lines
 * stay out of the way). Its connections do not wake the process while idle (kafkajs-idle-loop.ts).
 */
export function createKafka({ clientId, brokers, logger = silentLogger, config }: CreateKafkaOptions): Kafka {
  stopKafkajsIdleLoop();
  return new Kafka({
    ...config,
    clientId,
    brokers,
    logLevel: logLevel.INFO,
    logCreator: kafkajsLogCreator(logger.child({ component: 'kafkajs' })),
  });
}

const TOPIC_UNSAFE = /[^a-zA-Z0-9._-]/g;

/** One topic per aggregate type, e.g. `topicFor('decor', 'user')` → `decor.user`. */
export function topicFor(prefix: string, aggregateType: AggregateType | string): string {
  return `${prefix}.${aggregateType}`;
}

/**
 * The dead-letter topic is per consumer GROUP (`<prefix>.dlq.<groupId>`), not per source topic: a
 * poison message is poison for one group's handler, other groups may have handled it fine, and
 * staff replaying a group's DLQ only re-drives that group's failures. Characters Kafka refuses in
 * topic names become `_`.
 */
export function dlqTopicFor(prefix: string, groupId: string): string {
  return `${prefix}.dlq.${groupId.replace(TOPIC_UNSAFE, '_')}`;
}

export interface EnsureTopicsOptions {
  /** Partition count of topics this call creates; existing topics are left as they are. */
  partitions?: number;
  timeoutMs?: number;
}

/**
 * Creates the missing topics (our broker has auto-create off). Idempotent and safe when several
 * processes create the same topics at once: "already exists" counts as success, and we then wait
 * until every partition has a leader, so a producer right after this call does not fail.
 *
 * The broker is asked about these topics only. kafkajs' listTopics (and createTopics) describe every
 * partition of every topic, twice per call: in a long test run, with thousands of partitions, that
 * was most of what a service's start cost the broker. Most calls find their topics already there.
 */
export async function ensureTopics(
  kafka: Kafka,
  names: string[],
  { partitions = 6, timeoutMs = 15_000 }: EnsureTopicsOptions = {},
): Promise<void> {
  const wanted = [...new Set(names)];
  if (wanted.length === 0) return;
  const admin = kafka.admin();
  await admin.connect();
  try {
    if ((await leadersOf(admin, wanted)).ready) return;
    // Returns false (no throw) when every "error" is TOPIC_ALREADY_EXISTS: a concurrent creator won,
    // or some of them were there. kafkajs' own waitForLeaders gives up on UNKNOWN_TOPIC_OR_PARTITION,
    // which a busy broker answers for a moment after creating a topic; our loop below tolerates it.
    await admin.createTopics({
      topics: wanted.map((topic) => ({ topic, numPartitions: partitions })),
      timeout: timeoutMs,
      waitForLeaders: false,
    });
    await waitForLeaders(admin, wanted, timeoutMs);
  } finally {
    await admin.disconnect();
  }
}

/** Whether every partition of `topics` has a leader; the broker's refusal when it would not say. */
async function leadersOf(admin: Admin, topics: string[]): Promise<{ ready: boolean; error?: unknown }> {
  try {
    const { topics: meta } = await admin.fetchTopicMetadata({ topics });
    const ready =
      meta.length === topics.length &&
      meta.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
    return { ready };
  } catch (error) {
    return { ready: false, error }; // e.g. UNKNOWN_TOPIC_OR_PARTITION: missing, or another creator's topic propagating
  }
}

async function waitForLeaders(admin: Admin, topics: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const { ready, error } = await leadersOf(admin, topics);
    if (ready) return;
    if (error) lastError = error;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Kafka topics ${topics.join(', ')} have no partition leaders after ${timeoutMs} ms`, {
    cause: lastError,
  });
}

/** A connected-state-aware producer, shared by the outbox relay and the consumers' dead-lettering. */
export interface Publisher {
  readonly kafka: Kafka;
  readonly producer: Producer;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** True between a successful connect and a disconnect (either ours or the broker's). */
  isConnected(): boolean;
}

export interface CreatePublisherOptions {
  logger?: KitLogger;
  retry?: RetryOptions;
}

/**
 * Producer settings that matter:
 * - `createPartitioner: DefaultPartitioner` set explicitly (kafkajs 2 changed the default and warns);
 *   it is the Java client's murmur2 partitioner, so a key maps to the same partition as in Java tools.
 * - `idempotent: true`: the broker drops duplicates of a retried batch, and kafkajs then forces
 *   acks=all (-1) and keeps ordering per partition, so one aggregate's events stay in order.
 */
export function createPublisher(
  kafka: Kafka,
  { logger = silentLogger, retry }: CreatePublisherOptions = {},
): Publisher {
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    ...(retry ? { retry } : {}),
  });
  let connected = false;
  producer.on(producer.events.CONNECT, () => {
    connected = true;
  });
  producer.on(producer.events.DISCONNECT, () => {
    if (connected) logger.warn('kafka producer disconnected');
    connected = false;
  });
  return {
    kafka,
    producer,
    connect: () => producer.connect(),
    disconnect: async () => {
      connected = false;
      await producer.disconnect();
    },
    isConnected: () => connected,
  };
}

/** Headers every event carries, so tools (and the DLQ) can route without parsing the value. */
export const EVENT_HEADERS = {
  id: 'event-id',
  type: 'event-type',
  correlationId: 'correlation-id',
} as const;

/** The Kafka message for an envelope: key = aggregate id (one aggregate → one partition → ordered). */
export function toMessage(envelope: EventEnvelope): Message {
  return {
    key: envelope.aggregateId,
    value: JSON.stringify(envelope),
    headers: {
      [EVENT_HEADERS.id]: envelope.id,
      [EVENT_HEADERS.type]: envelope.type,
      [EVENT_HEADERS.correlationId]: envelope.correlationId,
      ...(envelope.traceparent ? { [TRACEPARENT_HEADER]: envelope.traceparent } : {}),
    },
  };
}

/**
 * Sends envelopes, waiting for acks=all. Envelopes of one aggregate keep their relative order (same
 * key → same partition, idempotent producer with one request in flight).
 */
export async function publishEnvelopes(
  producer: Producer,
  topicPrefix: string,
  envelopes: readonly EventEnvelope[],
): Promise<void> {
  if (envelopes.length === 0) return;
  const byTopic = new Map<string, Message[]>();
  const spans: { end(err?: unknown): void }[] = [];
  for (const e of envelopes) {
    const topic = topicFor(topicPrefix, e.aggregateType);
    const list = byTopic.get(topic) ?? [];
    const message = toMessage(e);
    // Each event's send continues the trace of the request that wrote it, not the relay's round.
    const span = e.traceparent
      ? startSpan(`send ${e.type}`, {
          kind: SpanKind.PRODUCER,
          parent: e.traceparent,
          attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, 'event.id': e.id },
        })
      : undefined;
    if (span) {
      spans.push(span);
      if (span.traceparent && message.headers) message.headers[TRACEPARENT_HEADER] = span.traceparent;
    }
    list.push(message);
    byTopic.set(topic, list);
  }
  let failure: unknown;
  try {
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    for (const s of spans) s.end(failure);
  }
}

/**
 * Where the topic ends now, per partition. Every retriable refusal is asked again a few times here
 * (`anyRetriable`): the next attempt of a reader joining is seconds away.
 */
export async function topicEndOffsets(
  kafka: Kafka,
  topic: string,
): Promise<{ partition: number; offset: string }[]> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const offsets = await fetchTopicOffsets(admin, topic, { attempts: 5, anyRetriable: true });
    return offsets.map(({ partition, high }) => ({ partition, offset: high }));
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
