import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { EventEnvelope } from '@decor/contracts';
import {
  publishEnvelopes,
  type RunningService,
  type StartedService,
  startService,
  startWorkers,
} from '@decor/kit';
import {
  type Answer,
  type CaughtMail,
  call,
  consumerCaughtUp,
  deleteRunKeys,
  eventually,
  freePort,
  mailTo,
  RUN_ID,
  serviceEnv,
  testEndpoints,
} from '@decor/kit/testing';
import { notificationService } from '../src/app';
import { loadNotificationConfig } from '../src/config';
import type { NotificationContext } from '../src/context';
import { notificationWorkers } from '../src/worker-app';

export { type Answer, type CaughtMail, mailTo, RUN_ID };

const noExit = { exit: () => {} };

/** This file's staff inbox (STAFF_EMAIL): new-estimate notices and enquiries of this run only. */
export const STAFF = `staff-${RUN_ID}@decor.example`;

/** A unique address per test and run, so the shared mail catcher never mixes tests. */
export function address(name: string): string {
  return `${name}-${randomUUID().slice(0, 8)}-${RUN_ID}@decor.example`;
}

export type Notification = StartedService<NotificationContext>;

/** Env of this file's notification processes (its own database, topics, queue and staff inbox). */
export function notificationEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return serviceEnv('notification', { STAFF_EMAIL: STAFF, ...extra });
}

export async function startNotification(extra: Record<string, string> = {}): Promise<Notification> {
  return startService(notificationService(loadNotificationConfig(await notificationEnv(extra))), noExit);
}

/** A worker process (in this test process) sending this file's queue through `smtpUrl` (default: the catcher). */
export async function startWorker(extra: Record<string, string> = {}): Promise<RunningService> {
  return startWorkers(notificationWorkers(loadNotificationConfig(await notificationEnv(extra))), noExit);
}

/** Deletes this run's mails, queue keys and database, then stops everything given. */
export async function stopAndClean(service: Notification | undefined, ...workers: RunningService[]) {
  for (const w of workers) await w.shutdown('test over').catch(() => {});
  if (!service) return;
  const api = testEndpoints().mailApiUrl;
  const ids = (await mailTo(`-${RUN_ID}@`)).map((m) => m.ID);
  await fetch(`${api}/api/v1/messages`, { method: 'DELETE', body: JSON.stringify({ IDs: ids }) });
  await deleteRunKeys(service.ctx.redis);
  await service.ctx.connection.dropDatabase();
  await service.shutdown('test over');
}

/** A POST unless told otherwise (most of this service's routes are). */
export const send = (base: string, path: string, init: Parameters<typeof call>[2] = {}): Promise<Answer> =>
  call(base, path, { method: 'POST', ...init });

export function tokenFor(service: Notification, permissions: 'customer' | 'admin' | 'superadmin'): string {
  return service.app.signToken({
    id: randomUUID().replace(/-/g, '').slice(0, 24),
    permissions,
    email: address(permissions),
  });
}

/** Publishes envelopes on this run's topics, as a service's outbox relay would. */
export async function publish(service: Notification, ...events: EventEnvelope[]): Promise<void> {
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, events);
}

/** Waits until the 'emails' consumer has handled everything now on the aggregate's topic. */
export const consumed = (service: Notification, aggregate: 'user' | 'user-email' | 'order') =>
  consumerCaughtUp(service.ctx, 'emails', aggregate);

/** Waits until no e-mail job is waiting, active or delayed: whatever was queued has been sent (or failed). */
export async function queueIdle(service: Notification, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => {
      const counts = await service.ctx.emails.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0) ? true : undefined;
    },
    timeoutMs,
    'an idle e-mail queue',
  );
}

/** Every e-mail job the service's queue holds, in any state (a refused request adds none). */
export async function jobCount(service: Pick<Notification, 'ctx'>): Promise<number> {
  const counts = await service.ctx.emails.getJobCounts(
    'waiting',
    'active',
    'delayed',
    'prioritized',
    'completed',
    'failed',
  );
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** The mails to `to`, once there are at least `count` of them. */
export function mailsArrive(to: string, count = 1, timeoutMs = 30_000): Promise<CaughtMail[]> {
  return eventually(
    async () => {
      const mails = await mailTo(to);
      return mails.length >= count ? mails : undefined;
    },
    timeoutMs,
    `${count} e-mail(s) to ${to}`,
  );
}

/**
 * Answers an SMTP client the way a server that will not take the message does: everything is fine
 * until RCPT, which gets a permanent 550 (as for a mailbox that does not exist).
 */
function refuseRecipients(client: Socket): void {
  client.write('220 refusing.test ESMTP\r\n');
  let buffered = '';
  client.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let end = buffered.indexOf('\r\n');
    while (end >= 0) {
      const verb = buffered.slice(0, end).slice(0, 4).toUpperCase();
      buffered = buffered.slice(end + 2);
      if (verb === 'QUIT') client.end('221 bye\r\n');
      else if (verb === 'RCPT') client.write('550 5.1.1 Mailbox unavailable\r\n');
      else client.write('250 ok\r\n');
      end = buffered.indexOf('\r\n');
    }
  });
}

/**
 * A TCP relay in front of the mail catcher, for SMTP outages: while it is down its port refuses
 * connections; `up()` listens on the same port again; `refuse()` listens but refuses every
 * recipient for good (550). It keeps the client's bytes (the raw SMTP conversation) so tests can
 * read headers the catcher's API does not show (Reply-To).
 */
export async function smtpRelay(): Promise<{
  url: string;
  up(): Promise<void>;
  refuse(): Promise<void>;
  down(): Promise<void>;
  transcript(): string;
}> {
  const { smtp } = testEndpoints();
  const port = await freePort();
  const sent: Buffer[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let refusing = false;
  const relay = (client: Socket) => {
    const upstream = connect(smtp.port, smtp.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => sent.push(chunk));
    client.pipe(upstream).pipe(client);
  };
  const down = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  };
  const listen = async (refuse: boolean) => {
    await down();
    refusing = refuse;
    await new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        if (!refusing) return relay(client);
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => client.destroy());
        refuseRecipients(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    up: () => listen(false),
    refuse: () => listen(true),
    down,
    transcript: () => Buffer.concat(sent).toString('utf8'),
  };
}
