/**
 * Crash safety of the password-reset path (issue 2, §6.3), with services as real OS processes
 * killed by SIGKILL: no shutdown hook runs, nothing buffered in memory survives.
 */
import { freePort, testEndpoints } from '@decor/infra';
import { createRedis, type RunningService, type StartedService, startService, startWorkers } from '@decor/kit';
import { type CaughtMail, deleteRunKeys, eventually, mailTo, RUN_ID, serviceEnv } from '@decor/kit/src/testing';
import type { Queue } from 'bullmq';
import { Kafka } from 'kafkajs';
import mongoose from 'mongoose';
import { notificationService } from '../../services/notification/src/app';
import { loadNotificationConfig } from '../../services/notification/src/config';
import { type EmailJob, emailQueue } from '../../services/notification/src/jobs/email-queue';
import { notificationWorkers } from '../../services/notification/src/worker-app';
import { userService } from '../../services/user/src/app';
import { loadUserConfig } from '../../services/user/src/config';
import type { UserContext } from '../../services/user/src/context';
import { type ServiceProcess, spawnService, startServiceProcess } from './support/processes';

jest.setTimeout(60_000);

const USER_MAIN = 'services/user/src/main.ts';
const NOTIFICATION_MAIN = 'services/notification/src/main.ts';
const noExit = { exit: () => {} };
const redis = createRedis(testEndpoints().redisUrl);
const mongo = mongoose.createConnection(testEndpoints().mongoUrl);

/** Each test gets its own databases, topics, consumer groups and queue (`scope` inside this file's run). */
function scoped(scope: string) {
  const prefix = `${RUN_ID}-${scope}`;
  const db = (service: string) => `${RUN_ID}_${scope}_${service}`;
  const redisPrefix = `${RUN_ID}:${scope}`;
  return {
    prefix,
    db,
    redisPrefix,
    /** Every address of this scope contains `-<prefix>@` (the catcher matches `to:` by substring). */
    address: (name: string) => `${name}-${prefix}@decor.example`,
    env: (service: string, extra: Record<string, string> = {}) =>
      serviceEnv(service, { MONGO_DB: db(service), KAFKA_TOPIC_PREFIX: prefix, REDIS_PREFIX: redisPrefix, ...extra }),
  };
}
type Scope = ReturnType<typeof scoped>;

// Everything a test starts is stopped after it, whatever happened.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});
afterAll(async () => {
  await deleteRunKeys(redis);
  await redis.quit();
  await mongo.close();
});

function track<T extends ServiceProcess | RunningService>(started: T): T {
  cleanups.push(() => ('kill9' in started ? started.stop() : started.shutdown('test over')));
  return started;
}

/** Notification service and its worker in this process; they consume the scope's `user` topic. */
async function startNotificationInProcess(s: Scope) {
  track(await startService(notificationService(loadNotificationConfig(await s.env('notification'))), noExit));
  track(await startWorkers(notificationWorkers(loadNotificationConfig(await s.env('notification'))), noExit));
}

/** The scope's e-mail queue as the test reads it; cleaned up with its databases, topics and mails. */
function readBack(s: Scope) {
  const queue: Queue<EmailJob> = emailQueue(redis, s.redisPrefix);
  cleanups.push(async () => {
    await queue.close();
    const mails = await mailTo(`-${s.prefix}@`);
    await fetch(`${testEndpoints().mailApiUrl}/api/v1/messages`, {
      method: 'DELETE',
      body: JSON.stringify({ IDs: mails.map((m) => m.ID) }),
    });
    for (const service of ['user', 'notification']) await mongo.useDb(s.db(service)).dropDatabase();
    const admin = new Kafka({ brokers: testEndpoints().kafkaBrokers, logLevel: 0 }).admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${s.prefix}.`));
    await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
  });
  return {
    jobIds: async () => (await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])).map((j) => j.id),
    jobCount: async () =>
      Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed')).reduce((a, b) => a + b, 0),
    mailCount: async () => {
      const res = await fetch(`${testEndpoints().mailApiUrl}/api/v1/search?limit=1&query=${encodeURIComponent(`to:-${s.prefix}@`)}`);
      return ((await res.json()) as { messages_count: number }).messages_count;
    },
    mails: () => mailTo(`-${s.prefix}@`),
  };
}

const tokenIn = (mail: CaughtMail) => decodeURIComponent(/\/reset\/(\S+)/.exec(mail.Text)?.[1] ?? '');

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('kill -9 the publishing service after the write but before the relay sent; on restart the event is delivered exactly once to the consumer effect', async () => {
  const s = scoped('publisher');
  const back = readBack(s);
  const customer = s.address('customer');
  await startNotificationInProcess(s);
  // This instance stores events but does not relay them: the crash always falls between the two.
  const userEnv = await s.env('user', { DEMO_CUSTOMER_EMAIL: customer, DEMO_ADMIN_EMAIL: s.address('staff'), DEMO_SUPERADMIN_EMAIL: s.address('owner') });
  const doomed = track(await startServiceProcess('user', USER_MAIN, { ...userEnv, OUTBOX_RELAY: 'false' }));

  expect((await post(`${doomed.url}/send/reset`, { email: customer })).status).toBe(200);
  const users = mongo.useDb(userEnv.MONGO_DB as string).collection('users');
  const saved = await users.findOne({ email: customer });
  expect(saved?.outbox).toHaveLength(1);
  const [event] = saved?.outbox as { id: string; type: string; payload: { resetToken: string } }[];
  expect(event?.type).toBe('PasswordResetRequested');

  await doomed.kill9();
  expect(await back.mailCount()).toBe(0);

  const restarted = track(await startServiceProcess('user', USER_MAIN, { ...userEnv, PORT: String(await freePort()) }));
  const [mail] = await eventually(async () => {
    const mails = await back.mails();
    return mails.length > 0 ? mails : undefined;
  }, 30_000, 'the reset e-mail after the restart');
  expect(mail?.To.map((a) => a.Address)).toEqual([customer]);
  const token = tokenIn(mail as CaughtMail);
  expect(token).toBe(event?.payload.resetToken);
  const link = await fetch(`${restarted.url}/auth/resetLink`, { headers: { authorization: `Bearer ${token}` } });
  expect(link.status).toBe(200);
  expect(((await link.json()) as { result: { email: string } }).result.email).toBe(customer);
  await eventually(async () => ((await users.findOne({ email: customer }))?.outbox.length === 0 ? true : undefined), 10_000, 'an empty outbox');

  // Exactly once, also after the relay's next scans and any redelivery would have happened.
  await new Promise((r) => setTimeout(r, 3000));
  expect(await back.mailCount()).toBe(1);
  expect(await back.jobIds()).toEqual([`email.${event?.id}`]);
});

test('kill a consumer mid-batch; nothing is lost and nothing is applied twice', async () => {
  const t0 = Date.now(); const mark = (w: string) => process.stderr.write(`[timing] ${w} ${Date.now() - t0} ms\n`);
  const s = scoped('consumer');
  const back = readBack(s);
  const user: StartedService<UserContext> = track(await startService(userService(loadUserConfig(await s.env('user'))), noExit));
  track(await startWorkers(notificationWorkers(loadNotificationConfig(await s.env('notification'))), noExit));

  mark('// 40 guests');
  // 40 guests × 5 reset requests = 200 PasswordResetRequested events, all in Kafka before any consumer runs.
  const guests = Array.from({ length: 40 }, (_, i) => s.address(`guest${i}`));
  await user.ctx.users.insertMany(guests.map((email, i) => ({ firstName: 'Guest', lastName: String(i), email, permissions: 'customer' })));
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(guests.map((email) => post(`${user.url}/send/reset`, { email })));
    expect(answers.map((a) => a.status)).toEqual(guests.map(() => 200));
  }
  await eventually(async () => ((await user.ctx.users.countDocuments({ 'outbox.0': { $exists: true } })) === 0 ? true : undefined), 20_000, 'every event relayed');

  mark('// The consumer starts');
  // The consumer starts with 200 events waiting and is killed as soon as its first e-mail jobs appear.
  const notificationEnv = await s.env('notification');
  const doomed = track(await spawnService('notification', NOTIFICATION_MAIN, notificationEnv));
  await eventually(async () => ((await back.jobCount()) > 0 ? true : undefined), 30_000, 'the first e-mail job');
  await doomed.kill9();
  const jobsAtKill = await back.jobCount();
  expect(jobsAtKill).toBeGreaterThan(0);
  expect(jobsAtKill).toBeLessThan(200);

  mark('// The new instance');
  // The new instance waits for the dead member's Kafka session to expire, then takes over its partitions.
  const successor = track(await spawnService('notification', NOTIFICATION_MAIN, { ...notificationEnv, PORT: String(await freePort()) }));
  mark('await successor.ready(50_000);');
  await successor.ready(50_000); // ready = joined the group, which takes the dead member's session timeout
  mark('await eventually(async () => (');
  await eventually(async () => ((await back.mailCount()) >= 200 ? true : undefined), 50_000, '200 e-mails');
  await new Promise((r) => setTimeout(r, 2000)); // room for a duplicate to show up

  mark('const jobIds = await back.jobI');
  const jobIds = await back.jobIds();
  expect(jobIds).toHaveLength(200);
  expect(new Set(jobIds).size).toBe(200);
  const mails = await back.mails();
  expect(mails).toHaveLength(200);
  expect(new Set(mails.map(tokenIn)).size).toBe(200);
  // Each e-mail's Message-ID names its job, and so the event that caused it.
  expect(new Set(mails.map((m) => m.MessageID?.replace(/^<|@decor\.local>$/g, '')))).toEqual(new Set(jobIds));
  console.info(`consumer killed with ${jobsAtKill}/200 e-mail jobs enqueued`);
});
