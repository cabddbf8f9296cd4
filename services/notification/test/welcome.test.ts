import { randomUUID } from 'node:crypto';
import { UserCreated } from '@decor/contracts';
import { newEvent, PROCESSED_EVENTS_COLLECTION, type RunningService } from '@decor/kit';
import {
  address,
  consumed,
  mailsArrive,
  mailTo,
  type Notification,
  publish,
  queueIdle,
  RUN_ID,
  send,
  startNotification,
  startWorker,
  stopAndClean,
  tokenFor,
} from './support';

let service: Notification;
let worker: RunningService;
let base: string;

beforeAll(async () => {
  service = await startNotification();
  worker = await startWorker();
  base = service.url;
});
afterAll(() => stopAndClean(service, worker));

function userCreated(email: string, displayName: string, extra: { welcome?: boolean } = {}) {
  const userId = randomUUID().replace(/-/g, '').slice(0, 24);
  return newEvent(UserCreated, {
    aggregateId: userId,
    correlationId: randomUUID(),
    payload: { userId, email, displayName, permissions: 'customer', ...extra },
  });
}

describe('UserCreated → welcome e-mail', () => {
  it('sends one welcome e-mail with both parts, the name and an absolute link to the site', async () => {
    const to = address('newcomer');
    await publish(service, userCreated(to, 'Ana <Diaz>'));

    const [mail] = await mailsArrive(to);
    expect(mail?.Subject).toBe('Welcome to Gala & Grove Event Rentals');
    expect(mail?.To.map((a) => a.Address)).toEqual([to]);
    expect(mail?.Text).toContain('Hello Ana <Diaz>,');
    expect(mail?.Text).toContain('http://127.0.0.1:8080/');
    expect(mail?.Text).toContain("'Forgot password'");
    expect(mail?.HTML).toContain('Hello Ana &lt;Diaz&gt;,');
    expect(mail?.HTML).toContain('href="http://127.0.0.1:8080/"');
    expect(mail?.HTML).toContain('Gala &amp; Grove Event Rentals');
  });

  it('sends it once when the same event comes twice, and once more after a lost "processed" record', async () => {
    const to = address('twice');
    const event = userCreated(to, 'Bo');
    await publish(service, event);
    await publish(service, event);
    await mailsArrive(to);
    await consumed(service, 'user');

    // The consumer's window: the e-mail was queued but the event not yet recorded as processed when
    // it crashed. The redelivery then runs the handler again; the job id (the event id) stops it.
    const processed = service.ctx.connection.collection(PROCESSED_EVENTS_COLLECTION);
    const removed = await processed.deleteOne({ _id: `${RUN_ID}.notification.emails:${event.id}` } as never);
    expect(removed.deletedCount).toBe(1);
    await publish(service, event);
    await consumed(service, 'user');
    await queueIdle(service);

    expect(await mailTo(to)).toHaveLength(1);
    expect((await service.ctx.emails.getJob(`email.${event.id}`))?.data.email.to).toBe(to);
  });
});

it('sends no welcome e-mail to a seeded account (welcome: false)', async () => {
  const seeded = userCreated(address('seeded'), 'Seeded', { welcome: false });
  await publish(service, seeded);
  await consumed(service, 'user');
  await queueIdle(service);
  expect(await service.ctx.emails.getJob(`email.${seeded.id}`)).toBeUndefined();
  expect(await mailTo(address('seeded'))).toHaveLength(0);
});

describe('POST /send/welcomeEmail', () => {
  it('lets staff re-send the welcome e-mail', async () => {
    const to = address('resend');
    for (const role of ['admin', 'superadmin'] as const) {
      const answer = await send(base, '/send/welcomeEmail', {
        json: { email: to },
        token: tokenFor(service, role),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ result: { queued: true } });
    }
    const mails = await mailsArrive(to, 2);
    expect(mails.map((m) => m.Subject)).toEqual([
      'Welcome to Gala & Grove Event Rentals',
      'Welcome to Gala & Grove Event Rentals',
    ]);
    expect(mails[0]?.Text.startsWith('Hello,\n')).toBe(true);
    expect(mails[0]?.HTML).toContain('href="http://127.0.0.1:8080/"');
  });

  it('refuses customers (403) and anonymous callers (401), and sends nothing', async () => {
    const to = address('refused');
    const customer = await send(base, '/send/welcomeEmail', {
      json: { email: to },
      token: tokenFor(service, 'customer'),
    });
    expect(customer.status).toBe(403);
    expect(customer.body).toEqual({ message: 'You are not allowed to do this' });
    const anonymous = await send(base, '/send/welcomeEmail', { json: { email: to } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Authentication required' });
    // An anonymous caller learns nothing about the body either: 401 before validation.
    expect((await send(base, '/send/welcomeEmail', { json: { email: 'nope' } })).status).toBe(401);

    await queueIdle(service);
    expect(await mailTo(to)).toHaveLength(0);
  });

  it.each([
    ['a malformed address', { email: 'not-an-address' }],
    ['two addresses', { email: 'a@b.example,c@d.example' }],
    ['no domain dot', { email: 'ana@localhost' }],
    ['a number', { email: 42 }],
    ['no e-mail', {}],
  ])('answers 400 with the spec message for %s', async (_what, json) => {
    const answer = await send(base, '/send/welcomeEmail', { json, token: tokenFor(service, 'admin') });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: 'Please provide a valid email address' });
  });

  it('refuses unknown fields and a malformed Idempotency-Key', async () => {
    const token = tokenFor(service, 'admin');
    const extra = await send(base, '/send/welcomeEmail', { json: { email: address('x'), cc: 'y' }, token });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ message: "Unknown field 'cc'" });
    const badKey = await send(base, '/send/welcomeEmail', {
      json: { email: address('x') },
      token,
      headers: { 'idempotency-key': 'has spaces/and slashes' },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.message).toMatch(/^idempotency-key must be/);
  });

  it('sends once for two requests with the same Idempotency-Key, again for a new key', async () => {
    const to = address('idem');
    const token = tokenFor(service, 'admin');
    const key = randomUUID();
    for (const k of [key, key, randomUUID()]) {
      const answer = await send(base, '/send/welcomeEmail', {
        json: { email: to },
        token,
        headers: { 'idempotency-key': k },
      });
      expect(answer.status).toBe(200);
    }
    await mailsArrive(to, 2);
    await queueIdle(service);
    expect(await mailTo(to)).toHaveLength(2);
  });

  it('without a key, the request id is the cause: a repeated request id sends once', async () => {
    const to = address('reqid');
    const token = tokenFor(service, 'admin');
    const requestId = `req-${randomUUID()}`;
    for (let i = 0; i < 2; i++) {
      const answer = await send(base, '/send/welcomeEmail', {
        json: { email: to },
        token,
        headers: { 'x-request-id': requestId },
      });
      expect(answer.status).toBe(200);
    }
    await mailsArrive(to);
    await queueIdle(service);
    expect(await mailTo(to)).toHaveLength(1);
  });
});
