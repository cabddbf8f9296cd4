/**
 * Scaling a consumer service out (issue 2, §6.4): two instances of the notification service in one
 * consumer group split the `user-email` topic's partitions, and 500 password-reset requests still end in
 * exactly 500 e-mails.
 */

import { PasswordResetRequested } from '@decor/contracts';
import {
  createRedis,
  type RunningService,
  type StartedService,
  startService,
  startWorkers,
  topicFor,
} from '@decor/kit';
import { type CaughtMail, deleteRunKeys, eventually, mailTo, RUN_ID, serviceEnv } from '@decor/kit/testing';
import type { NotificationContext } from '@decor/notification';
import {
  emailQueue,
  loadNotificationConfig,
  notificationService,
  notificationWorkers,
} from '@decor/notification';
import { testEndpoints } from '@decor/stack';
import type { UserContext } from '@decor/user';
import { loadUserConfig, userService } from '@decor/user';
import { Kafka } from 'kafkajs';
import mongoose from 'mongoose';

jest.setTimeout(60_000);

const GUESTS = 50;
const RESETS_EACH = 10;
const EVENTS = GUESTS * RESETS_EACH;
const noExit = { exit: () => {} };
const endpoints = testEndpoints();
const topic = topicFor(RUN_ID, PasswordResetRequested.aggregateType);
const redis = createRedis(endpoints.redisUrl);
const queue = emailQueue(redis, RUN_ID);
const kafka = new Kafka({ clientId: RUN_ID, brokers: endpoints.kafkaBrokers, logLevel: 0 });
const guests = Array.from({ length: GUESTS }, (_, i) => `guest${i}-${RUN_ID}@decor.example`);
const started: RunningService[] = [];
let user: StartedService<UserContext>;
let instances: StartedService<NotificationContext>[];

beforeAll(async () => {
  const start = async <T extends RunningService>(starting: Promise<T>): Promise<T> => {
    const s = await starting;
    started.push(s);
    return s;
  };
  const notification = async (extra: Record<string, string> = {}) =>
    loadNotificationConfig(await serviceEnv('notification', extra));
  // All at once: the two instances then join the group in the same round, with no extra rebalance.
  const all = await Promise.allSettled([
    // Each guest asks RESETS_EACH resets: above the per-address limit of a real deployment.
    start(
      startService(
        userService(loadUserConfig(await serviceEnv('user', { RESETS_PER_ACCOUNT_PER_HOUR: '1000' }))),
        noExit,
      ),
    ),
    start(startService(notificationService(await notification()), noExit)),
    start(startService(notificationService(await notification()), noExit)),
    start(startWorkers(notificationWorkers(await notification({ EMAIL_CONCURRENCY: '20' })), noExit)),
  ]);
  const failed = all.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [u, a, b] = all.map((r) => (r as PromiseFulfilledResult<RunningService>).value);
  user = u as StartedService<UserContext>;
  instances = [a, b] as StartedService<NotificationContext>[];
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.shutdown('test over').catch(() => {})));
  const mails = await mailTo(`-${RUN_ID}@`).catch(() => []);
  await fetch(`${endpoints.mailApiUrl}/api/v1/messages`, {
    method: 'DELETE',
    body: JSON.stringify({ IDs: mails.map((m) => m.ID) }),
  });
  await queue.close();
  await deleteRunKeys(redis);
  await redis.quit();
  const mongo = await mongoose.createConnection(endpoints.mongoUrl).asPromise();
  for (const service of ['user', 'notification']) await mongo.useDb(`${RUN_ID}_${service}`).dropDatabase();
  await mongo.close();
  const admin = kafka.admin();
  await admin.connect();
  await admin
    .deleteTopics({ topics: (await admin.listTopics()).filter((t) => t.startsWith(`${RUN_ID}.`)) })
    .catch(() => {});
  await admin.disconnect();
});

const partitionsOf = (s: StartedService<NotificationContext>) =>
  s.consumers[0]?.health().assignment[topic] ?? [];
const tokenIn = (mail: CaughtMail) => decodeURIComponent(/\/reset\/(\S+)/.exec(mail.Text)?.[1] ?? '');

test('two instances of the same consumer service share the topic partitions; 500 events are each handled exactly once in effect', async () => {
  // Both members in the group, the 6 partitions split between them (the first rejoins on its next heartbeat).
  const held = await eventually(
    async () => {
      const held = instances.map(partitionsOf);
      const all = held.flat();
      const split = held.every((p) => p.length > 0) && all.length === 6 && new Set(all).size === 6;
      return split ? held : undefined;
    },
    20_000,
    'both instances holding partitions',
  );
  expect(held.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);

  // Which instance handled what, from each one's own Kafka client.
  const handledBy = instances.map(() => new Map<number, number>());
  instances.forEach((s, i) => {
    const consumer = s.consumers[0]?.consumer;
    consumer?.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const seen = handledBy[i] as Map<number, number>;
      seen.set(payload.partition, (seen.get(payload.partition) ?? 0) + payload.batchSize);
    });
  });

  await user.ctx.users.insertMany(
    guests.map((email, i) => ({ firstName: 'Guest', lastName: String(i), email, permissions: 'customer' })),
  );
  for (let round = 0; round < RESETS_EACH; round++) {
    const answers = await Promise.all(
      guests.map((email) =>
        fetch(`${user.url}/send/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(guests.map(() => 200));
  }

  const mailCount = async () => {
    const res = await fetch(
      `${endpoints.mailApiUrl}/api/v1/search?limit=1&query=${encodeURIComponent(`to:-${RUN_ID}@`)}`,
    );
    return ((await res.json()) as { messages_count: number }).messages_count;
  };
  await eventually(
    async () => ((await mailCount()) >= EVENTS ? true : undefined),
    40_000,
    `${EVENTS} e-mails`,
  );
  await new Promise((r) => setTimeout(r, 1500)); // room for a duplicate to show up

  // The events really were spread: every partition got some (keys are the 50 user ids).
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  // The topic holds the resets and nothing else: what the user service seeded on start (UserCreated,
  // CompanyUpserted) is on `user`.
  expect(offsets.map((o) => Number(o.high)).reduce((x, y) => x + y, 0)).toBe(EVENTS);
  expect(offsets.every((o) => Number(o.high) > 0)).toBe(true);

  // Each instance handled only its own partitions, and both did work.
  instances.forEach((_, i) => {
    const partitions = [...(handledBy[i] as Map<number, number>).keys()];
    expect(partitions.length).toBeGreaterThan(0);
    expect(held[i]).toEqual(expect.arrayContaining(partitions));
  });
  const handled = handledBy.flatMap((m) => [...m.values()]).reduce((x, y) => x + y, 0);
  expect(handled).toBeGreaterThanOrEqual(EVENTS); // a redelivery may re-run a handler; its effect must not repeat

  const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed']);
  expect(jobs).toHaveLength(EVENTS);
  expect(new Set(jobs.map((j) => j.id)).size).toBe(EVENTS);
  const mails = await mailTo(`-${RUN_ID}@`);
  expect(mails).toHaveLength(EVENTS);
  expect(new Set(mails.map(tokenIn)).size).toBe(EVENTS);
  expect(new Set(mails.map((m) => m.MessageID)).size).toBe(EVENTS);
  expect(new Set(mails.map((m) => m.To[0]?.Address))).toEqual(new Set(guests));
});
