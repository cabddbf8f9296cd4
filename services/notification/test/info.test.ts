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
  service = await startNotification({ CONTACT_MAX_PER_ADDRESS: '100' });
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
  eventDate: '2027-03-22',
  message: 'Do you rent <gold> chargers?\nWe need 120 for June.',
});

/** The enquiry mails of one visitor in the staff inbox (shared by this file's tests). */
async function enquiriesFrom(name: string) {
  return (await mailTo(STAFF)).filter((m) => m.Subject === `Website enquiry from ${name}`);
}

// The refusals, the honeypot and the limits are tested through the gateway: infra/testbed/test/contact.test.ts.
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
    expect(mail?.Text).toMatch(/Event Date: \w+day, March 22nd, 2027/);
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

  it('accepts the limits: 100-character name, 40-character phone, 5000-character message, no phone or date', async () => {
    const atLimits = { ...valid(), name: 'N'.repeat(100), phone: '1'.repeat(40), message: 'm'.repeat(5000) };
    expect((await send(service.url, '/send/info', { json: atLimits })).status).toBe(200);
    const { phone: _p, eventDate: _d, ...noPhone } = valid();
    expect((await send(service.url, '/send/info', { json: noPhone })).status).toBe(200);
    for (const { name } of [atLimits, noPhone])
      await eventually(async () => ((await enquiriesFrom(name)).length > 0 ? true : undefined), 30_000, name);
    const [withoutPhone] = await enquiriesFrom(noPhone.name);
    expect(withoutPhone?.Text).not.toContain('Phone:');
    expect(withoutPhone?.Text).not.toContain('Event Date:');
  });
});
