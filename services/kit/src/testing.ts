/**
 * Test helpers for services: each jest test file gets its own run id, and with it its own Mongo
 * databases, Kafka topics, consumer groups and Redis keys on the shared test servers, whose
 * addresses jest's global setup hands over in the environment (`testEndpoints()`). The kit does not
 * depend on @decor/stack, which starts those servers: a test that starts servers or processes of its
 * own (a broker behind a relay, a service as an OS process) takes them from the stack itself.
 * Import as '@decor/kit/testing' (test code only).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AggregateType, EventEnvelope } from '@decor/contracts';
import { testEndpoints } from '@decor/contracts/test-endpoints';
import { freePort } from '@decor/contracts/test-ports';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import { waitForCatchUp } from './messaging/catch-up';
import { type BaseContext, startService } from './service';

export { testEndpoints } from '@decor/contracts/test-endpoints';
export { freePort } from '@decor/contracts/test-ports';
export {
  type KafkaBehindRelay,
  kafkaBehindRelay,
  type OutageMode,
  type TcpRelay,
  tcpRelay,
} from './tcp-relay';

export const RUN_ID = `t${randomBytes(4).toString('hex')}`;

/**
 * The JWT secret every test process passes explicitly (never the published development one). Short
 * and published, so accepted only with DECOR_ALLOW_DEV_SECRETS=1, which serviceEnv sets.
 */
export const TEST_JWT_SECRET = 'test-secret-shared-by-gateway-and-services';

/** Env for one service process of this test file (pass `port` to pin it, e.g. for the gateway's table). */
export async function serviceEnv(
  service: string,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const e = testEndpoints();
  return {
    NODE_ENV: 'test',
    DECOR_ALLOW_DEV_SECRETS: '1',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MONGO_URL: e.mongoUrl,
    MONGO_DB: `${RUN_ID}_${service.replace(/[^A-Za-z0-9_-]/g, '_')}`,
    KAFKA_BROKERS: e.kafkaBrokers.join(','),
    KAFKA_TOPIC_PREFIX: RUN_ID,
    REDIS_URL: e.redisUrl,
    REDIS_PREFIX: RUN_ID,
    JWT_SECRET: TEST_JWT_SECRET,
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
    SMTP_URL: `smtp://${e.smtp.host}:${e.smtp.port}`,
    ...extra,
  };
}

/** Deletes this run's BullMQ keys (every key under the run's prefix). */
export async function deleteRunKeys(redis: Redis): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${RUN_ID}:*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Polls `probe` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** What `outboxesRelayed` asks of an aggregate's model (a mongoose model with the outbox plugin). */
interface OutboxCounter {
  countDocuments(filter: Record<string, unknown>): PromiseLike<number>;
}

/**
 * Waits until no document of `models` matching `filter` holds an unpublished event. A state write is
 * visible before the outbox relay has published its events: read a topic only after this.
 */
export async function outboxesRelayed(
  models: readonly OutboxCounter[],
  filter: Record<string, unknown> = {},
  timeoutMs = 15_000,
): Promise<void> {
  const pending = { ...filter, 'outbox.0': { $exists: true } };
  await eventually(
    async () => {
      let unrelayed = 0;
      for (const model of models) unrelayed += await model.countDocuments(pending);
      return unrelayed === 0 ? true : undefined;
    },
    timeoutMs,
    'the outboxes to be relayed',
  );
}

export interface CaughtMail {
  ID: string;
  Subject: string;
  To: { Address: string }[];
  ReplyTo?: { Address: string }[];
  Text: string;
  HTML: string;
  MessageID?: string;
}

/** Every message the mail catcher holds for `address`, full text included, oldest first. */
export async function mailTo(address: string): Promise<CaughtMail[]> {
  const api = testEndpoints().mailApiUrl;
  const res = await fetch(`${api}/api/v1/search?limit=100000&query=${encodeURIComponent(`to:${address}`)}`);
  const { messages } = (await res.json()) as { messages: { ID: string }[] };
  const full = await Promise.all(
    messages.map(async (m) => (await (await fetch(`${api}/api/v1/message/${m.ID}`)).json()) as CaughtMail),
  );
  return full.reverse();
}

/**
 * Starts a service definition in this test process, checks that /healthz and /readyz answer with
 * Mongo, Kafka, Redis and the ended sessions up and that its aggregate's topic exists with 6 partitions, then stops it.
 */
export async function expectServiceStartsReady(
  def: Parameters<typeof startService>[0],
  aggregate: AggregateType,
): Promise<void> {
  const service = await startService(def, { exit: () => {} });
  try {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    const body = (await ready.json()) as { checks: Record<string, { status: string }> };
    expect(ready.status).toBe(200);
    expect(body.checks).toMatchObject({
      mongo: { status: 'up' },
      kafka: { status: 'up' },
      redis: { status: 'up' },
      // Which sessions ended is read before the port opens (a token would answer 503 until then).
      sessions: { status: 'up' },
    });

    const admin = service.ctx.kafka.admin();
    await admin.connect();
    const { topics } = await admin.fetchTopicMetadata({ topics: [`${RUN_ID}.${aggregate}`] });
    await admin.disconnect();
    expect(topics[0]?.partitions).toHaveLength(6);
  } finally {
    await service.shutdown('test over');
  }
}

/**
 * Reads a topic (or several, their events interleaved as they arrive) from the start in a throw-away
 * consumer group until `done` says the events seen so far are enough (or the time is up), and
 * returns them.
 */
export async function topicEvents(
  kafka: Kafka,
  topic: string | string[],
  done: (events: EventEnvelope[]) => boolean,
  { timeoutMs = 15_000 } = {},
): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  const consumer = kafka.consumer({ groupId: `${RUN_ID}.test-reader.${randomUUID()}` });
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const timer = setTimeout(finish, timeoutMs);
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic].flat(), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        events.push(JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope);
        if (done(events)) finish();
      },
    });
    if (done(events)) finish();
    await finished;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
  return events;
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  body: any;
}

/** Real HTTP to a running instance; `token` becomes `Authorization: Bearer`. */
export async function call(
  base: string,
  path: string,
  init: { method?: string; json?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * Waits until the service's consumer `consumer` (the name in its ServiceDefinition) has handled
 * everything now on the aggregate's topic: after it, a projection read shows those events, and an
 * event's absence of effect is an answer rather than a guess.
 */
export async function consumerCaughtUp(
  ctx: Pick<BaseContext, 'name' | 'config' | 'kafka' | 'connection' | 'topic'>,
  consumer: string,
  aggregate: AggregateType,
  timeoutMs = 30_000,
): Promise<void> {
  const admin = ctx.kafka.admin();
  await admin.connect();
  try {
    const caughtUp = await waitForCatchUp({
      admin,
      connection: ctx.connection,
      groupId: `${ctx.config.KAFKA_TOPIC_PREFIX}.${ctx.name}.${consumer}`,
      topic: ctx.topic(aggregate),
      timeoutMs,
      kafkaTimeoutMs: timeoutMs,
    });
    if (!caughtUp)
      throw new Error(`${ctx.name}.${consumer} did not catch up on ${aggregate} in ${timeoutMs} ms`);
  } finally {
    await admin.disconnect();
  }
}
