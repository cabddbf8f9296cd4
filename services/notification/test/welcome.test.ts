import { randomUUID } from 'node:crypto';
import { UserCreated, WelcomeEmailRequested } from '@decor/contracts';
import { newEvent, PROCESSED_EVENTS_COLLECTION, type RunningService, verifyResetToken } from '@decor/kit';
import { TEST_JWT_SECRET } from '@decor/kit/testing';
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

function welcomeRequested(email: string, displayName: string, resetId: string = randomUUID()) {
  const userId = randomUUID().replace(/-/g, '').slice(0, 24);
  return newEvent(WelcomeEmailRequested, {
    aggregateId: userId,
    correlationId: randomUUID(),
    payload: {
      userId,
      email,
      displayName,
      resetId,
      expiresAt: '2036-12-01T10:00:00.000Z', // in the future: the link's token expires with it
    },
  });
}

function userCreated(email: string) {
  const userId = randomUUID().replace(/-/g, '').slice(0, 24);
  return newEvent(UserCreated, {
    aggregateId: userId,
    correlationId: randomUUID(),
    payload: { userId, email, displayName: 'Created', permissions: 'customer' },
  });
}

describe('WelcomeEmailRequested → welcome e-mail', () => {
  it('sends one welcome e-mail with both parts, the name and the set-password link', async () => {
    const to = address('newcomer');
    const event = welcomeRequested(to, 'Ana <Diaz>', 'reset-id-1');
    await publish(service, event);

    const [mail] = await mailsArrive(to);
    expect(mail?.Subject).toBe('Welcome to Gala & Grove Event Rentals');
    expect(mail?.To.map((a) => a.Address)).toEqual([to]);
    expect(mail?.Text).toContain('Hello Ana <Diaz>,');
    // The worker minted the link from the event's reset id: a reset token of that user and reset.
    const link = /Choose your password here: http:\/\/127\.0\.0\.1:8080\/reset\/([A-Za-z0-9._%-]+)/.exec(
      mail?.Text ?? '',
    );
    const token = decodeURIComponent(link?.[1] ?? '');
    expect(verifyResetToken(TEST_JWT_SECRET, token)).toMatchObject({
      sub: event.payload.userId,
      jti: 'reset-id-1',
      purpose: 'password-reset',
    });
    expect(mail?.Text).toContain('until December 1, 2036');
    expect(mail?.HTML).toContain('Hello Ana &lt;Diaz&gt;,');
    expect(mail?.HTML).toContain(`href="http://127.0.0.1:8080/reset/${link?.[1]}"`);
    // Neither the event nor the queued job held the link.
    const job = await service.ctx.emails.getJob(`email.${event.id}`);
    expect(JSON.stringify(job?.data)).not.toContain(token);
    expect(JSON.stringify(event)).not.toContain(token);
    expect(mail?.HTML).toContain('Gala &amp; Grove Event Rentals');
  });

  it('sends it once when the same event comes twice, and once more after a lost "processed" record', async () => {
    const to = address('twice');
    const event = welcomeRequested(to, 'Bo');
    await publish(service, event);
    await publish(service, event);
    await mailsArrive(to);
    await consumed(service, 'user-email');

    // The consumer's window: the e-mail was queued but the event not yet recorded as processed when
    // it crashed. The redelivery then runs the handler again; the job id (the event id) stops it.
    const processed = service.ctx.connection.collection(PROCESSED_EVENTS_COLLECTION);
    const removed = await processed.deleteOne({ _id: `${RUN_ID}.notification.emails:${event.id}` } as never);
    expect(removed.deletedCount).toBe(1);
    await publish(service, event);
    await consumed(service, 'user-email');
    await queueIdle(service);

    expect(await mailTo(to)).toHaveLength(1);
    expect((await service.ctx.emails.getJob(`email.${event.id}`))?.data.email.to).toBe(to);
  });

  it('sends one e-mail per request: two requests for one address are two e-mails', async () => {
    const to = address('resent');
    await publish(service, welcomeRequested(to, 'Cy'));
    await publish(service, welcomeRequested(to, 'Cy'));
    await mailsArrive(to, 2);
    await consumed(service, 'user-email');
    await queueIdle(service);
    expect(await mailTo(to)).toHaveLength(2);
  });

  it('sends one still relayed to the user topic, where e-mail requests travelled before user-email', async () => {
    // An outbox written before the move (or an older user instance during a rolling upgrade) keeps
    // the event's old aggregate type, which names the topic its relay publishes it to.
    const to = address('before-the-move');
    const event = { ...welcomeRequested(to, 'Di'), aggregateType: 'user' as const };
    await publish(service, event);
    const [mail] = await mailsArrive(to);
    expect(mail?.Subject).toBe('Welcome to Gala & Grove Event Rentals');
    await consumed(service, 'user');
    expect(await mailTo(to)).toHaveLength(1);
  });
});

it('sends nothing for UserCreated alone (the user service asks for the welcome e-mail itself)', async () => {
  const created = userCreated(address('created'));
  await publish(service, created);
  await consumed(service, 'user');
  await queueIdle(service);
  expect(await service.ctx.emails.getJob(`email.${created.id}`)).toBeUndefined();
  expect(await mailTo(address('created'))).toHaveLength(0);
});

it('no longer answers POST /send/welcomeEmail (the gateway sends it to the user service)', async () => {
  const answer = await send(base, '/send/welcomeEmail', {
    json: { email: address('x') },
    token: tokenFor(service, 'admin'),
  });
  expect(answer.status).toBe(404);
});
