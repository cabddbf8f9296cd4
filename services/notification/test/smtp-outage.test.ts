/**
 * The SMTP server is unreachable: e-mail jobs fail, are retried with backoff, and go out exactly once
 * when the server is back (or a worker with the right address takes over).
 */
import { randomUUID } from 'node:crypto';
import { WelcomeEmailRequested } from '@decor/contracts';
import { newEvent, type RunningService } from '@decor/kit';
import { eventually, freePort } from '@decor/kit/testing';
import {
  address,
  mailsArrive,
  mailTo,
  type Notification,
  publish,
  queueIdle,
  smtpRelay,
  startNotification,
  startWorker as startWorkerWith,
  stopAndClean,
} from './support';

// The schedule's first waits shortened (1 s doubling, as in smtp-long-outage) instead of 5 s: the
// retries and the send after are the same, without a 10 s wait for each.
const RETRY = { EMAIL_RETRY_FIRST_MS: '1000', EMAIL_RETRY_MAX_MS: '10000' };
const startWorker = (extra: Record<string, string> = {}) => startWorkerWith({ ...RETRY, ...extra });

let service: Notification;
const workers: RunningService[] = [];

beforeAll(async () => {
  service = await startNotification(RETRY);
});
afterAll(() => stopAndClean(service, ...workers));

function welcomeFor(email: string) {
  const userId = randomUUID().replace(/-/g, '').slice(0, 24);
  return newEvent(WelcomeEmailRequested, {
    aggregateId: userId,
    correlationId: randomUUID(),
    payload: {
      userId,
      email,
      displayName: 'Outage Olive',
      resetId: 'reset-id',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
}

/** The job once it has failed at least `attempts` times and waits for its next try. */
async function failedAttempts(jobId: string, attempts: number) {
  return eventually(
    async () => {
      const job = await service.ctx.emails.getJob(jobId);
      return job && job.attemptsMade >= attempts && (await job.getState()) !== 'completed' ? job : undefined;
    },
    20_000,
    `${attempts} failed attempts of ${jobId}`,
  );
}

test('jobs retry while the SMTP server refuses connections and send once when it is back', async () => {
  const relay = await smtpRelay(); // down: its port refuses connections
  const worker = await startWorker({ SMTP_URL: relay.url });
  workers.push(worker);
  try {
    const to = address('outage');
    const event = welcomeFor(to);
    await publish(service, event);

    const job = await failedAttempts(`email.${event.id}`, 2);
    expect(job.failedReason).toMatch(/ECONNREFUSED/);
    expect(await job.getState()).not.toBe('failed'); // retrying, not given up
    expect(await mailTo(to)).toHaveLength(0);

    await relay.up();
    const [mail] = await mailsArrive(to);
    expect(mail?.Subject).toBe('Welcome to Gala & Grove Event Rentals');
    // The Message-ID names the job, hence the event (the local catcher keeps the angle brackets, Mailpit not).
    expect(mail?.MessageID?.replace(/^<|>$/g, '')).toBe(`email.${event.id}@decor.local`);
    await queueIdle(service);
    expect(await (await service.ctx.emails.getJob(`email.${event.id}`))?.getState()).toBe('completed');
    expect(await mailTo(to)).toHaveLength(1);
  } finally {
    await worker.shutdown('test over');
    await relay.down();
  }
});

test('a worker with a wrong SMTP address fails the job; the one that replaces it sends it once', async () => {
  const closed = `smtp://127.0.0.1:${await freePort()}`;
  const wrong = await startWorker({ SMTP_URL: closed });
  workers.push(wrong);
  const to = address('redeploy');
  const event = welcomeFor(to);
  await publish(service, event);

  await failedAttempts(`email.${event.id}`, 2);
  await wrong.shutdown('replaced');
  expect(await mailTo(to)).toHaveLength(0);

  workers.push(await startWorker()); // the catcher's address
  const [mail] = await mailsArrive(to);
  expect(mail?.To.map((a) => a.Address)).toEqual([to]);
  await queueIdle(service);
  expect(await mailTo(to)).toHaveLength(1);
});

test('a job run again after SMTP took its message (a crash before it was marked done) sends nothing more', async () => {
  workers.push(await startWorker());
  const to = address('rerun');
  const event = welcomeFor(to);
  await publish(service, event);
  await mailsArrive(to);
  await queueIdle(service);
  const done = await service.ctx.emails.getJob(`email.${event.id}`);
  const firstFinish = done?.finishedOn ?? 0;

  // As if the worker died between SMTP's answer and BullMQ's "completed": the job runs once more.
  await done?.retry('completed');
  const rerun = await eventually(
    async () => {
      const job = await service.ctx.emails.getJob(`email.${event.id}`);
      return (await job?.getState()) === 'completed' && (job?.finishedOn ?? 0) > firstFinish
        ? job
        : undefined;
    },
    30_000,
    'the job run again',
  );
  expect(rerun.failedReason ?? '').toBe('');
  expect(await mailTo(to)).toHaveLength(1);
});
