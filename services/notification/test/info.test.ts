import { randomUUID } from 'node:crypto';
import type { RunningService } from '@decor/kit';
import { eventually } from '@decor/kit/testing';
import {
  address,
  mailTo,
  type Notification,
  queueIdle,
  STAFF,
  send,
  smtpRelay,
  startNotification,
  startWorker,
  stopAndClean,
} from './support';

let service: Notification;
let worker: RunningService;
let relay: Awaited<ReturnType<typeof smtpRelay>>;

beforeAll(async () => {
  service = await startNotification();
  // Through a relay that keeps the raw SMTP conversation: the catcher's API does not show Reply-To.
  relay = await smtpRelay();
  await relay.up();
  worker = await startWorker({ SMTP_URL: relay.url });
});
afterAll(async () => {
  await stopAndClean(service, worker);
  await relay.down();
});

const valid = () => ({
  name: `Visitor ${randomUUID().slice(0, 8)}`,
  email: address('visitor'),
  phone: '+1 555 0100',
  message: 'Do you rent <gold> chargers?\nWe need 120 for June.',
});

/** The enquiry mails of one visitor in the staff inbox (shared by this file's tests). */
async function enquiriesFrom(name: string) {
  return (await mailTo(STAFF)).filter((m) => m.Subject === `Website enquiry from ${name}`);
}

describe('POST /send/info', () => {
  it('e-mails the enquiry to the staff, reply-to the visitor', async () => {
    const enquiry = valid();
    const answer = await send(service.url, '/send/info', { json: enquiry });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: { queued: true } });

    const [mail] = await eventually(
      async () => {
        const mails = await enquiriesFrom(enquiry.name);
        return mails.length > 0 ? mails : undefined;
      },
      30_000,
      'the enquiry e-mail',
    );
    expect(mail?.To.map((a) => a.Address)).toEqual([STAFF]);
    expect(mail?.Text).toContain(`E-mail: ${enquiry.email}`);
    expect(mail?.Text).toContain('Phone: +1 555 0100');
    expect(mail?.Text).toContain('Do you rent <gold> chargers?\nWe need 120 for June.');
    expect(mail?.HTML).toContain('Do you rent &lt;gold&gt; chargers?<br>We need 120 for June.');
    expect(mail?.HTML).toContain('Gala &amp; Grove Event Rentals');
    expect(mail?.HTML).toContain('href="http://127.0.0.1:8080"');
    const replyTo = new RegExp(`^Reply-To: <?${enquiry.email.replace(/[.+]/g, '\\$&')}>?\\r?$`, 'mi');
    expect(relay.transcript()).toMatch(replyTo);
  });

  it('sends once per Idempotency-Key', async () => {
    const enquiry = valid();
    const key = randomUUID();
    for (let i = 0; i < 2; i++) {
      const answer = await send(service.url, '/send/info', {
        json: enquiry,
        headers: { 'idempotency-key': key },
      });
      expect(answer.status).toBe(200);
    }
    await eventually(async () => ((await enquiriesFrom(enquiry.name)).length > 0 ? true : undefined), 30_000);
    await queueIdle(service);
    expect(await enquiriesFrom(enquiry.name)).toHaveLength(1);
  });

  it.each([
    ['no name', { name: undefined }, 'name is required'],
    ['an empty name', { name: '' }, 'name must not be empty'],
    ['a blank name', { name: '   ' }, 'name must not be empty'],
    ['a long name', { name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    ['a name that is not text', { name: 7 }, 'name must be a string'],
    ['no e-mail', { email: undefined }, 'Please provide a valid email address'],
    ['a malformed e-mail', { email: 'visitor@' }, 'Please provide a valid email address'],
    [
      'an e-mail with a display name',
      { email: 'Eve <eve@x.example>' },
      'Please provide a valid email address',
    ],
    ['a long phone', { phone: '1'.repeat(41) }, 'phone must be at most 40 characters'],
    ['a phone that is a number', { phone: 5550100 }, 'phone must be a string'],
    ['no message', { message: undefined }, 'message is required'],
    ['an empty message', { message: '' }, 'message must not be empty'],
    ['a blank message', { message: ' \n ' }, 'message must not be empty'],
    ['a long message', { message: 'm'.repeat(5001) }, 'message must be at most 5000 characters'],
    ['an unknown field', { subject: 'Hi' }, "Unknown field 'subject'"],
  ])('refuses %s with 400 and sends nothing', async (_what, change, message) => {
    const enquiry = { ...valid(), ...change };
    const jobsBefore = await jobCount();
    const answer = await send(service.url, '/send/info', { json: JSON.parse(JSON.stringify(enquiry)) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
    expect(await jobCount()).toBe(jobsBefore);
  });

  it('accepts the limits: 100-character name, 40-character phone, 5000-character message, no phone', async () => {
    const atLimits = { ...valid(), name: 'N'.repeat(100), phone: '1'.repeat(40), message: 'm'.repeat(5000) };
    expect((await send(service.url, '/send/info', { json: atLimits })).status).toBe(200);
    const { phone: _p, ...noPhone } = valid();
    expect((await send(service.url, '/send/info', { json: noPhone })).status).toBe(200);
    for (const { name } of [atLimits, noPhone])
      await eventually(async () => ((await enquiriesFrom(name)).length > 0 ? true : undefined), 30_000, name);
    const [withoutPhone] = await enquiriesFrom(noPhone.name);
    expect(withoutPhone?.Text).not.toContain('Phone:');
  });
});

/** Every e-mail job this file's queue holds, in any state. */
async function jobCount(): Promise<number> {
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
