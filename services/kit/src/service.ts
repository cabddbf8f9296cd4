import type { AggregateType } from '@decor/contracts';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Connection, Model } from 'mongoose';
import pino from 'pino';
import type { Registry } from 'prom-client';
import type { CommonConfig } from './config';
import { createServiceApp, type ServiceApp } from './http/app';
import { type Closer, type RunningService, runService } from './http/run';
import { durationMs, SessionVersions } from './http/session-versions';
import { createRedis, pingRedis, redisReady } from './jobs/redis';
import { type ConsumerHandle, type EventHandler, startConsumer } from './messaging/consumer';
import { kafkaReadiness } from './messaging/health';
import {
  createKafka,
  createPublisher,
  dlqTopicFor,
  ensureTopics,
  type Publisher,
  topicFor,
} from './messaging/kafka';
import type { KitLogger } from './messaging/log';
import { OutboxRelay } from './messaging/outbox';
import { createMetricsRegistry } from './metrics/registry';
import { connectMongo, mongoReadinessCheck } from './mongo/connection';
import { flushTracing, traceLogMixin } from './tracing/context';

/** What every service process has once connected; a service's own context extends it. */
export interface BaseContext<C extends CommonConfig = CommonConfig> {
  name: string;
  config: C;
  log: pino.Logger;
  connection: Connection;
  kafka: Kafka;
  publisher: Publisher;
  redis: Redis;
  /** This process's metrics registry (`GET /metrics`): a service registers its own metrics here. */
  metrics: Registry;
  /** Ended sessions (the auth hooks use it; a route checking a token of its own may too). */
  sessionVersions: SessionVersions;
  /** Topic name of an aggregate type under this deployment's prefix. */
  topic(aggregate: AggregateType): string;
  /**
   * Wakes the outbox relay right after a write, instead of waiting for its next scan. With the
   * written document's `_id` it claims just that document; without, it scans every outbox model.
   */
  eventsWritten(docId?: unknown): void;
  /**
   * Wakes the relay and waits (at most ~2 s) until it has published what was written so far. For
   * writes whose next read happens in ANOTHER service (the cart lines an estimate is built from).
   * With the written document's `_id` the relay claims just that one (as `eventsWritten(docId)`)
   * instead of scanning every outbox: cheaper when many writers wait at once.
   */
  eventsPublished(docId?: unknown): Promise<void>;
}

export interface ConsumerSpec {
  /**
   * Consumer group = `<KAFKA_TOPIC_PREFIX>.<service>.<name>`; instances of the service share it. The
   * prefix keeps deployments that share a Kafka cluster (and test files) out of each other's groups:
   * kafkajs' group leader assigns only the topics IT subscribes to, so a member of the same group on
   * another prefix's topic would be handed partitions it ignores and starve the rest.
   */
  name: string;
  topics: AggregateType[];
  handlers: Record<string, EventHandler>;
}

export interface ServiceDefinition<C extends CommonConfig, Ctx extends BaseContext<C>> {
  name: string;
  config: C;
  /** Adds the service's models (and anything else) to the base context. */
  build(base: BaseContext<C>): Ctx | Promise<Ctx>;
  /** Aggregate models whose outbox this service relays to Kafka. */
  // biome-ignore lint/suspicious/noExplicitAny: any aggregate document type
  outbox?(ctx: Ctx): Model<any>[];
  /** Aggregates this service publishes; their topics are created at start. */
  publishes?: AggregateType[];
  consumers?(ctx: Ctx): ConsumerSpec[];
  routes(app: ServiceApp, ctx: Ctx): Promise<void>;
  /** After everything is connected and before the port opens (e.g. demo data). */
  onReady?(ctx: Ctx): Promise<void>;
  /** Closed after consumers and relay, before Redis, Kafka and Mongo. */
  closers?(ctx: Ctx): Closer[];
}

export interface StartedService<Ctx> extends RunningService {
  ctx: Ctx;
  app: ServiceApp;
  consumers: ConsumerHandle[];
}

/**
 * The one start-up sequence of every service process: Mongo, Kafka (topics, producer), Redis,
 * the outbox relay, the event consumers, then HTTP with /readyz covering all of them; on
 * SIGTERM the reverse order (HTTP drains first, the database closes last).
 */
export async function startService<C extends CommonConfig, Ctx extends BaseContext<C>>(
  def: ServiceDefinition<C, Ctx>,
  opts: { exit?: (code: number) => void } = {},
): Promise<StartedService<Ctx>> {
  const { config } = def;
  const log = pino({ level: config.LOG_LEVEL, base: { service: def.name }, mixin: traceLogMixin });
  const metrics = createMetricsRegistry(def.name);
  // What is open so far, newest first: the shutdown order, and what a failed start releases.
  const opened: Closer[] = [];
  const opening = <T>(name: string, value: T, close: (v: T) => Promise<unknown> | unknown): T => {
    opened.unshift({ name, close: () => close(value) });
    return value;
  };
  // Closed last: the spans of the shutdown itself are sent too.
  opening('tracing', undefined, () => flushTracing());
  try {
    const connection = opening('mongo', await connectMongo(config.MONGO_URL, config.MONGO_DB, log), (c) =>
      c.close(),
    );
    const kafka = createKafka({
      clientId: def.name,
      brokers: [...config.KAFKA_BROKERS],
      logger: log as KitLogger,
    });
    const topic = (aggregate: AggregateType) => topicFor(config.KAFKA_TOPIC_PREFIX, aggregate);
    if (def.publishes?.length) await ensureTopics(kafka, def.publishes.map(topic));
    // The producer connection: every command fails within 2 s while Redis is away, so a request
    // that enqueues, counts or locks answers 503 instead of hanging (workers open their own).
    const redis = opening('redis', createRedis(config.REDIS_URL, { purpose: 'producer' }), (r) =>
      r.quit().catch(() => r.disconnect()),
    );
    redis.on('error', (err) => log.debug({ err }, 'redis connection error'));
    if (!(await redisReady(redis, 10_000)))
      log.warn('Redis is not answering yet; requests that use it answer 503');
    const publisher = opening('kafka producer', createPublisher(kafka, { logger: log as KitLogger }), (p) =>
      p.disconnect(),
    );
    await publisher.connect();

    // Ended sessions (password change or reset, sign-out, suspension, deletion), learnt from the user
    // topic by every instance: the auth hooks refuse them here too, not only at the gateway.
    await ensureTopics(kafka, [topic('user')]);
    const sessions = opening('session versions', sessionVersionsFor(kafka, config, def.name, log), (s) =>
      s.stop(),
    );
    void sessions.start();

    let relay: OutboxRelay | undefined;
    const base: BaseContext<C> = {
      name: def.name,
      config,
      log,
      connection,
      kafka,
      publisher,
      redis,
      metrics,
      sessionVersions: sessions,
      topic,
      eventsWritten: (docId?: unknown) => relay?.notify(docId),
      eventsPublished: async (docId?: unknown) => {
        if (!relay) return;
        relay.notify(docId);
        await relay.flushed();
      },
    };
    const ctx = await def.build(base);
    // Indexes (unique ones especially) exist before the first write: mongoose builds them in the
    // background otherwise, and mongo-java-server can fail a write racing an index build.
    await Promise.all(Object.values(connection.models).map((model) => model.init()));
    for (const closer of def.closers?.(ctx) ?? []) opened.unshift(closer);

    const models = def.outbox?.(ctx) ?? [];
    if (models.length > 0 && config.OUTBOX_RELAY) {
      relay = opening(
        'outbox relay',
        new OutboxRelay({
          models,
          publisher,
          topicPrefix: config.KAFKA_TOPIC_PREFIX,
          logger: log as KitLogger,
        }),
        (r) => r.stop(),
      );
      relay.start();
    }
    // Stopped together: each waits out its in-flight Kafka fetch, which one after another adds up.
    const consumers = opening('consumers', [] as ConsumerHandle[], (all) =>
      Promise.all(all.map((c) => c.stop())),
    );
    // Started together: each is its own group, and its start (topics, connect, group join) is mostly
    // waiting for the broker; one after another, the order service's six took most of its start.
    // Every start is awaited before a failure is thrown, so the stop below finds each one that started.
    const starts = (def.consumers?.(ctx) ?? []).map(async (spec) => {
      const name = `${def.name}.${spec.name}`;
      // The group carries the topic prefix: kafkajs' group leader assigns only topics it subscribes
      // to itself, so two deployments (or test files) sharing one group name would starve each other.
      const groupId = `${config.KAFKA_TOPIC_PREFIX}.${name}`;
      return startConsumer({
        kafka,
        groupId,
        topics: spec.topics.map(topic),
        handlers: spec.handlers,
        connection,
        dlq: { topic: dlqTopicFor(config.KAFKA_TOPIC_PREFIX, name), publisher },
        logger: log.child({ consumer: groupId }) as KitLogger,
        consumerConfig: { sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS },
        metrics,
      });
    });
    const started = await Promise.allSettled(starts);
    for (const s of started) if (s.status === 'fulfilled') consumers.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;

    const app = await createServiceApp({
      name: def.name,
      logger: log,
      jwt: { secret: config.JWT_SECRET, expiresIn: config.JWT_EXPIRES_IN, sessions },
      metrics,
    });
    app.addReadinessCheck('mongo', mongoReadinessCheck(connection));
    app.addReadinessCheck('kafka', () => {
      const state = kafkaReadiness({ publisher, consumers, relays: relay ? [relay] : [] });
      if (!state.ready) throw new Error(JSON.stringify(state));
    });
    app.addReadinessCheck('redis', () => pingRedis(redis));
    // Until every ended session is known, tokens answer 503 (the auth hooks): not ready either.
    app.addReadinessCheck('sessions', () => {
      if (!sessions.caughtUp) throw new Error('ended sessions not read yet (user topic)');
    });
    await def.routes(app, ctx);
    await def.onReady?.(ctx);
    // The port opens once they are (well under a second on a quiet topic), or after a bounded wait:
    // then tokens answer 503 and /readyz says why until the reader catches up.
    if (!(await sessions.whenCaughtUp(SESSIONS_START_WAIT_MS)))
      log.warn('ended sessions not read yet: session tokens answer 503 until they are');

    const running = await runService({
      app,
      port: config.PORT,
      host: config.HOST,
      exit: opts.exit,
      onClose: opened,
      drainDelayMs: config.DRAIN_DELAY_MS,
    });
    log.info({ url: running.url }, `${def.name} ready`);
    return { ...running, ctx, app, consumers };
  } catch (err) {
    for (const closer of opened) await Promise.resolve(closer.close()).catch(() => {});
    throw err;
  }
}

/** How long a starting service waits for the ended sessions before opening its port anyway. */
const SESSIONS_START_WAIT_MS = 10_000;

/** The user topic read from a token lifetime (and a minute for clocks) ago, in a group of its own. */
export function sessionVersionsFor(
  kafka: Kafka,
  config: Pick<CommonConfig, 'KAFKA_TOPIC_PREFIX' | 'JWT_EXPIRES_IN'>,
  processName: string,
  logger: pino.Logger | KitLogger,
): SessionVersions {
  return new SessionVersions({
    kafka,
    topic: topicFor(config.KAFKA_TOPIC_PREFIX, 'user'),
    logger: logger as KitLogger,
    name: `${processName}.sessions`,
    lookbackMs: (durationMs(config.JWT_EXPIRES_IN) ?? 7 * 86_400_000) + 60_000,
  });
}

/** For a process's main: a start-up failure is printed plainly and ends the process with code 1. */
export function exitOnStartFailure(err: unknown): never {
  process.stderr.write(
    `start-up failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}
