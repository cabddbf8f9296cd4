/**
 * SMTP down for 40 s (longer than the old six attempts from 1 s survived, 31 s; some 40 attempts
 * each here): the e-mails asked for meanwhile keep retrying (none fails for good, the queue shows
 * them waiting for a retry) and each arrives exactly once after SMTP is back. The schedule's steps
 * are shortened here (250 ms doubling up to 1 s, so the e-mails go out within about a second of
 * SMTP's return); it still spans a day.
 */
import { randomUUID } from 'node:crypto';
import { type EmailQueueCounts, PasswordResetRequested, WelcomeEmailRequested } from '@decor/contracts';
import { newEvent, type RunningService } from '@decor/kit';
import { call } from '@decor/kit/testing';
import { retryAttempts, retrySpanMs } from '../src/domain/retry-schedule';
import { emailRetry } from '../src/jobs/email-queue';
import {
  address,
  mailTo,
  type Notification,
  publish,
  queueIdle,
  smtpRelay,
  startNotification,
  startWorker,
  stopAndClean,
  tokenFor,
} from './support';

const DOWN_MS = 40_000;
const RETRY = { EMAIL_RETRY_FIRST_MS: '250', EMAIL_RETRY_MAX_MS: '1000' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let service: Notification;
let worker: RunningService | undefined;
let relay: Awaited<ReturnType<typeof smtpRelay>>;

beforeAll(async () => {
  relay = await smtpRelay(); // down: its port refuses connections
  service = await startNotification(RETRY);
  worker = await startWorker({ ...RETRY, SMTP_URL: relay.url });
});
afterAll(async () => {
  await stopAndClean(service, ...(worker ? [worker] : []));
  await relay?.down();
});

function userEvent(kind: 'welcome' | 'reset', email: string) {
  const userId = randomUUID().replace(/-/g, '').slice(0, 24);
  const payload = {
    userId,
    email,
    displayName: 'Outage Olive',
    resetId: randomUUID(),
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  };
  const type = kind === 'welcome' ? WelcomeEmailRequested : PasswordResetRequested;
  return newEvent(type, { aggregateId: userId, correlationId: randomUUID(), payload });
}

test(
  `every e-mail asked for while SMTP is down for ${DOWN_MS / 1000} s arrives exactly once after it`,
  async () => {
    const schedule = emailRetry({
      EMAIL_RETRY_FIRST_MS: Number(RETRY.EMAIL_RETRY_FIRST_MS),
      EMAIL_RETRY_MAX_MS: Number(RETRY.EMAIL_RETRY_MAX_MS),
    });
    expect(retrySpanMs(schedule)).toBeGreaterThanOrEqual(24 * 3600_000);

    const downSince = Date.now();
    const sent = Array.from({ length: 10 }, (_, i) => {
      const kind = i % 2 === 0 ? 'welcome' : 'reset';
      const to = address(`long-outage-${kind}`);
      return { to, event: userEvent(kind, to) };
    });
    await publish(service, ...sent.map((s) => s.event));
    // A redelivered event (the same id) must not add an e-mail.
    await publish(service, (sent[0] as (typeof sent)[number]).event);

    // Half-way: nothing sent, nothing given up, every e-mail visibly waiting for a retry.
    await sleep(DOWN_MS / 2);
    const counts = await call(service.url, '/send/queue', { token: tokenFor(service, 'admin') });
    expect(counts.status).toBe(200);
    const result = counts.body?.result as EmailQueueCounts;
    expect(result.failed).toBe(0);
    expect(result.delayed + result.active + result.waiting).toBe(sent.length);
    const job = await service.ctx.emails.getJob(`email.${sent[1]?.event.id}`);
    expect(job?.opts.attempts).toBe(retryAttempts(schedule));
    expect(job?.attemptsMade).toBeGreaterThanOrEqual(4);
    expect(job?.failedReason).toMatch(/ECONNREFUSED/);

    await sleep(downSince + DOWN_MS - Date.now());
    expect(await service.ctx.emails.getFailedCount()).toBe(0);
    for (const { to } of sent) expect(await mailTo(to)).toHaveLength(0);
    expect(Date.now() - downSince).toBeGreaterThanOrEqual(DOWN_MS);

    await relay.up();
    await queueIdle(service, 60_000);
    expect(await service.ctx.emails.getFailedCount()).toBe(0);
    const arrived = await Promise.all(sent.map(async ({ to }) => (await mailTo(to)).length));
    expect(arrived).toEqual(sent.map(() => 1));
  },
  DOWN_MS + 180_000,
);
