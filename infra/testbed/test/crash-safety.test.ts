/**
 * Crash safety of the password-reset path (issue 2, §6.3), with services as real OS processes
 * killed by SIGKILL: no shutdown hook runs, nothing buffered in memory survives.
 *
 * The two tests run concurrently (each in its own databases, topics, consumer group and queue):
 * the consumer test has to wait out the dead member's Kafka session (kafkajs default 30 s).
 */

import { PasswordResetRequested } from '@decor/contracts';
import {
  createRedis,
  type RunningService,
  startService,
  startWorkers,
  topicFor,
  verifyResetToken,
} from '@decor/kit';
import {
  type CaughtMail,
  deleteRunKeys,
  eventually,
  freePort,
  TEST_JWT_SECRET as JWT_SECRET,
  mailTo,
  RUN_ID,
  serviceEnv,
  testEndpoints,
} from '@decor/kit/testing';
import {
  type EmailJob,
  emailQueue,
  loadNotificationConfig,
  notificationService,
  notificationWorkers,
} from '@decor/notification';
import { type ServiceProcess, spawnService, startServiceProcess } from '@decor/stack';
import { loadUserConfig, userService } from '@decor/user';
import type { Queue } from 'bullmq';
import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';

jest.setTimeout(60_000);

const USER_MAIN = 'services/user/src/main.ts';
const NOTIFICATION_MAIN = 'services/notification/src/main.ts';
const endpoints = testEndpoints();
const noExit = { exit: () => {} };
const redis = createRedis(endpoints.redisUrl);
const mongo = mongoose.createConnection(endpoints.mongoUrl);
const kafka = new Kafka({ clientId: RUN_ID, brokers: endpoints.kafkaBrokers, logLevel: logLevel.NOTHING });

afterAll(async () => {
  await deleteRunKeys(redis);
  await redis.quit();
  await mongo.close();
});

/**
 * One test's world inside this file's run: its own databases, topic prefix (hence topics and
 * consumer group), queue keys and e-mail addresses. It stops everything it started in `end()`,
 * then deletes its mails, databases and topics.
 */
function scoped(scope: string) {
  const prefix = `${RUN_ID}-${scope}`;
  const db = (service: string) => `${RUN_ID}_${scope}_${service}`;
  const redisPrefix = `${RUN_ID}:${scope}`;
  const queue: Queue<EmailJob> = emailQueue(redis, redisPrefix);
  const running: Array<ServiceProcess | RunningService> = [];
  const mailQuery = `-${prefix}@`; // every address of the scope contains it; the catcher matches `to:` by substring
  return {
    resetTopic: topicFor(prefix, PasswordResetRequested.aggregateType),
    groupId: `${prefix}.notification.emails`,
    address: (name: string) => `${name}${mailQuery}decor.example`,
    env: (service: string, extra: Record<string, string> = {}) =>
      serviceEnv(service, {
        MONGO_DB: db(service),
        KAFKA_TOPIC_PREFIX: prefix,
        REDIS_PREFIX: redisPrefix,
        ...extra,
      }),
    track<T extends ServiceProcess | RunningService>(started: T): T {
      running.push(started);
      return started;
    },
    jobIds: async () =>
      (await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])).map(
        (j) => j.id,
      ),
    jobCount: async () =>
      Object.values(
        await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'),
      ).reduce((a, b) => a + b, 0),
    mailCount: async () => {
      const res = await fetch(
        `${endpoints.mailApiUrl}/api/v1/search?limit=1&query=${encodeURIComponent(`to:${mailQuery}`)}`,
      );
      return ((await res.json()) as { messages_count: number }).messages_count;
    },
    mails: () => mailTo(mailQuery),
    async end() {
      await Promise.all(
        running.map((s) => ('kill9' in s ? s.stop() : s.shutdown('test over')).catch(() => {})),
      );
      await queue.close();
      const ids = (await mailTo(mailQuery)).map((m) => m.ID);
      await fetch(`${endpoints.mailApiUrl}/api/v1/messages`, {
        method: 'DELETE',
        body: JSON.stringify({ IDs: ids }),
      });
      for (const service of ['user', 'notification']) await mongo.useDb(db(service)).dropDatabase();
      const admin = kafka.admin();
      await admin.connect();
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`));
      await admin.deleteTopics({ topics }).catch(() => {});
      await admin.disconnect();
    },
  };
}

const tokenIn = (mail: CaughtMail) => decodeURIComponent(/\/reset\/(\S+)/.exec(mail.Text)?.[1] ?? '');
const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test.concurrent('kill -9 the publishing service after the write but before the relay sent; on restart the event is delivered exactly once to the consumer effect', async () => {
  const s = scoped('publisher');
  try {
    const customer = s.address('customer');
    s.track(
      await startService(notificationService(loadNotificationConfig(await s.env('notification'))), noExit),
    );
    s.track(
      await startWorkers(notificationWorkers(loadNotificationConfig(await s.env('notification'))), noExit),
    );
    const userEnv = await s.env('user', {
      DEMO_CUSTOMER_EMAIL: customer,
      DEMO_ADMIN_EMAIL: s.address('staff'),
      DEMO_SUPERADMIN_EMAIL: s.address('owner'),
    });
    // This instance stores events but does not relay them: its death always falls between the two.
    const doomed = s.track(
      await startServiceProcess('user', USER_MAIN, { ...userEnv, OUTBOX_RELAY: 'false' }),
    );

    expect((await post(`${doomed.url}/send/reset`, { email: customer })).status).toBe(200);
    const users = mongo.useDb(userEnv.MONGO_DB as string).collection('users');
    const saved = await users.findOne({ email: customer });
    // The demo users' UserCreated events wait in the outbox too (relay off); the reset is the one followed here.
    const resets = (
      (saved?.outbox ?? []) as { id: string; type: string; payload: { userId: string; resetId: string } }[]
    ).filter((e) => e.type === 'PasswordResetRequested');
    expect(resets).toHaveLength(1);
    const [event] = resets;

    await doomed.kill9();
    expect(await s.mailCount()).toBe(0);

    // A fresh process on the same database, relay on (the default).
    const restarted = s.track(
      await startServiceProcess('user', USER_MAIN, { ...userEnv, PORT: String(await freePort()) }),
    );
    const [mail] = await eventually(
      async () => {
        const mails = await s.mails();
        return mails.length > 0 ? mails : undefined;
      },
      30_000,
      'the reset e-mail after the restart',
    );
    expect(mail?.To.map((a) => a.Address)).toEqual([customer]);
    const token = tokenIn(mail as CaughtMail);
    // The link the worker minted names the reset the doomed process stored.
    expect(verifyResetToken(JWT_SECRET, token)).toMatchObject({
      sub: event?.payload.userId,
      jti: event?.payload.resetId,
    });
    const link = await fetch(`${restarted.url}/auth/resetLink`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(link.status).toBe(200);
    expect(((await link.json()) as { result: { email: string } }).result.email).toBe(customer);
    await eventually(
      async () => ((await users.findOne({ email: customer }))?.outbox.length === 0 ? true : undefined),
      10_000,
      'an empty outbox',
    );

    // Still exactly once after the relay's next scans and any redelivery would have happened.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await s.mailCount()).toBe(1);
    expect(await s.jobIds()).toEqual([`email.${event?.id}`]);
  } finally {
    await s.end();
  }
});

test.concurrent('kill a consumer mid-batch; nothing is lost and nothing is applied twice', async () => {
  const s = scoped('consumer');
  try {
    const user = s.track(await startService(userService(loadUserConfig(await s.env('user'))), noExit));
    // More parallel sends than the default 5: the test waits for 200 e-mails, a person for one.
    const workerEnv = await s.env('notification', { EMAIL_CONCURRENCY: '20' });
    s.track(await startWorkers(notificationWorkers(loadNotificationConfig(workerEnv)), noExit));

    // 40 guests × 5 reset requests = 200 PasswordResetRequested events, all in Kafka before a consumer runs.
    const guests = Array.from({ length: 40 }, (_, i) => s.address(`guest${i}`));
    await user.ctx.users.insertMany(
      guests.map((email, i) => ({ firstName: 'Guest', lastName: String(i), email, permissions: 'customer' })),
    );
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(guests.map((email) => post(`${user.url}/send/reset`, { email })));
      expect(answers.map((a) => a.status)).toEqual(guests.map(() => 200));
    }
    await eventually(
      async () =>
        (await user.ctx.users.countDocuments({ 'outbox.0': { $exists: true } })) === 0 ? true : undefined,
      20_000,
      'every event relayed',
    );

    // The consumer process starts with 200 events waiting and dies as soon as its first e-mail job exists:
    // it has fetched whole batches (about 33 events per partition) and handled only a few of them.
    const notificationEnv = await s.env('notification');
    const doomed = s.track(await spawnService('notification', NOTIFICATION_MAIN, notificationEnv));
    const deadline = Date.now() + 30_000;
    while ((await s.jobCount()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await doomed.kill9();
    const jobsAtKill = await s.jobCount();
    expect(jobsAtKill).toBeGreaterThan(0);
    expect(jobsAtKill).toBeLessThan(200);
    // Mid-batch for real: events whose e-mail job exists are not committed, so they come back.
    const admin = kafka.admin();
    await admin.connect();
    const [committed] = await admin.fetchOffsets({ groupId: s.groupId, topics: [s.resetTopic] });
    await admin.disconnect();
    const committedEvents = (committed?.partitions ?? []).reduce(
      (n, p) => n + Math.max(0, Number(p.offset)),
      0,
    );
    expect(committedEvents).toBeLessThan(jobsAtKill);

    // The successor joins the group once the dead member's session has expired, and takes over.
    const successor = s.track(
      await spawnService('notification', NOTIFICATION_MAIN, {
        ...notificationEnv,
        PORT: String(await freePort()),
      }),
    );
    await successor.ready(50_000); // ready includes "joined the consumer group"
    await eventually(async () => ((await s.mailCount()) >= 200 ? true : undefined), 40_000, '200 e-mails');
    await new Promise((r) => setTimeout(r, 2000)); // room for a duplicate to show up

    const jobIds = await s.jobIds();
    expect(jobIds).toHaveLength(200);
    expect(new Set(jobIds).size).toBe(200);
    const mails = await s.mails();
    expect(mails).toHaveLength(200);
    expect(new Set(mails.map(tokenIn)).size).toBe(200);
    // Each e-mail's Message-ID names its job, and so the event that caused it.
    expect(new Set(mails.map((m) => m.MessageID?.replace(/^<|@decor\.local>$/g, '')))).toEqual(
      new Set(jobIds),
    );
  } finally {
    await s.end();
  }
}, 90_000); // the dead member's Kafka session alone takes 30 s
