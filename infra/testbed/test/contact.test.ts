/**
 * The contact form's call (spec §7 POST /send/info) through the gateway: the form's texts on bad
 * input, the e-mail in the mail catcher (to the staff, reply-to the sender, content escaped), the
 * honeypot, and the limits per address and per sender shared through Redis by two instances of the
 * notification service, each behind its own gateway.
 */
import { randomUUID } from 'node:crypto';
import { CONTACT_HONEYPOT, CONTACT_TEXTS } from '@decor/contracts';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { JWT_SECRET } from '@decor/gateway/testing';
import type { RunningService, ServiceApp, StartedService } from '@decor/kit';
import { startService, startWorkers } from '@decor/kit';
import { type Answer, call, deleteRunKeys, eventually, mailTo, RUN_ID, serviceEnv } from '@decor/kit/testing';
import {
  loadNotificationConfig,
  type NotificationContext,
  notificationService,
  notificationWorkers,
} from '@decor/notification';
import { jobCount } from '@decor/notification/testing';

const STAFF = `staff-contact-${RUN_ID}@decor.example`;
const PER_ADDRESS = 5;
const PER_SENDER = 2;
const noExit = { exit: () => {} };

let instances: StartedService<NotificationContext>[];
let worker: RunningService;
let gateways: ServiceApp[];
let apis: string[];

beforeAll(async () => {
  const env = {
    STAFF_EMAIL: STAFF,
    CONTACT_MAX_PER_ADDRESS: String(PER_ADDRESS),
    CONTACT_MAX_PER_SENDER: String(PER_SENDER),
  };
  // Two instances on the same Redis (and queue): a limit must hold whichever one a message reaches.
  instances = [];
  for (let i = 0; i < 2; i++)
    instances.push(
      await startService(
        notificationService(loadNotificationConfig(await serviceEnv('notification', env))),
        noExit,
      ),
    );
  worker = await startWorkers(
    notificationWorkers(loadNotificationConfig(await serviceEnv('notification', env))),
    noExit,
  );
  gateways = [];
  apis = [];
  for (const instance of instances) {
    const gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET,
        NOTIFICATION_SERVICE_URL: instance.url,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        GATEWAY_CACHE_TTL_MS: '0',
      }),
      { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
    );
    gateways.push(gateway);
    apis.push(`${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`);
  }
  // Three services joining Kafka groups on a busy machine.
}, 240_000);

afterAll(async () => {
  for (const g of gateways ?? []) await g.close();
  await worker?.shutdown('test over');
  const [first, ...rest] = instances ?? [];
  await Promise.all(rest.map((s) => s.shutdown('test over')));
  if (first) {
    await deleteRunKeys(first.ctx.redis);
    await first.ctx.connection.dropDatabase();
    await first.shutdown('test over');
  }
});

const sender = () => `visitor-${randomUUID().slice(0, 8)}-${RUN_ID}@decor.example`;

const valid = () => ({
  name: `Visitor ${randomUUID().slice(0, 8)}`,
  email: sender(),
  phone: '+1 555 0100',
  eventDate: '2027-06-12',
  message: 'Do you rent <script>alert(1)</script> & gold chargers?\nWe need 120.',
});

const post = (json: unknown, via = 0, headers: Record<string, string> = {}): Promise<Answer> =>
  call(apis[via] as string, '/send/info', { method: 'POST', json, headers });

const enquiriesFrom = async (name: string) =>
  (await mailTo(STAFF)).filter((m) => m.Subject === `Website enquiry from ${name}`);

const arrives = (name: string) =>
  eventually(
    async () => {
      const [mail] = await enquiriesFrom(name);
      return mail;
    },
    30_000,
    `the enquiry of ${name}`,
  );

/** Every e-mail job of the queue both instances share. */
const jobs = () => jobCount(instances[0] as StartedService<NotificationContext>);

/** A fresh window for each limit test: this file's contact counters are removed. */
async function resetLimits(): Promise<void> {
  const redis = (instances[0] as StartedService<NotificationContext>).ctx.redis;
  const keys = await redis.keys(`${RUN_ID}:contact:*`);
  if (keys.length > 0) await redis.del(...keys);
}

describe('POST /api/send/info (the contact form)', () => {
  beforeEach(resetLimits);

  it('e-mails the staff, reply-to the sender, with every value escaped in the HTML part', async () => {
    const enquiry = valid();
    const answer = await post(enquiry);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: { queued: true } });

    const mail = await arrives(enquiry.name);
    expect(mail.To.map((a) => a.Address)).toEqual([STAFF]);
    expect(mail.ReplyTo?.map((a) => a.Address)).toEqual([enquiry.email]);
    expect(mail.Text).toContain(`E-mail: ${enquiry.email}`);
    expect(mail.Text).toContain('Phone: +1 555 0100');
    expect(mail.Text).toMatch(/Event Date: \w+day, June 12th, 2027/);
    expect(mail.Text).toContain(enquiry.message);
    expect(mail.HTML).toContain(
      'Do you rent &lt;script&gt;alert(1)&lt;/script&gt; &amp; gold chargers?<br>We need 120.',
    );
    expect(mail.HTML).not.toContain('<script>');
  });

  it.each([
    ['no name', { name: undefined }, 'Name: This field is required'],
    ['a blank name', { name: '   ' }, 'Name: This field is required'],
    ['a long name', { name: 'n'.repeat(101) }, 'Name: Please use at most 100 characters'],
    ['no e-mail', { email: undefined }, 'Please provide a valid email address'],
    ['a malformed e-mail', { email: 'visitor@' }, 'Please provide a valid email address'],
    [
      'an e-mail with a display name',
      { email: 'Eve <eve@x.example>' },
      'Please provide a valid email address',
    ],
    ['a second recipient', { email: 'a@x.example, b@y.example' }, 'Please provide a valid email address'],
    ['a long phone', { phone: '1'.repeat(41) }, 'Phone: Please use at most 40 characters'],
    ['an impossible date', { eventDate: '2027-02-30' }, 'Event Date: Please provide a valid date'],
    ['a date in another form', { eventDate: '06/12/2027' }, 'Event Date: Please provide a valid date'],
    ['no message', { message: undefined }, 'Message: This field is required'],
    ['a blank message', { message: ' \n ' }, 'Message: This field is required'],
    ['a long message', { message: 'm'.repeat(5001) }, 'Message: Please use at most 5000 characters'],
    ['a name that is not text', { name: 7 }, 'name must be a string'],
    ['an unknown field', { subject: 'Hi' }, "Unknown field 'subject'"],
  ])('refuses %s with 400 and the form’s text, sending nothing', async (_what, change, message) => {
    const before = await jobs();
    const answer = await post(JSON.parse(JSON.stringify({ ...valid(), ...change })));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
    expect(await jobs()).toBe(before);
  });

  it('a filled honeypot answers like a success and sends nothing', async () => {
    const bot = { ...valid(), [CONTACT_HONEYPOT]: 'https://spam.example' };
    const before = await jobs();
    const answer = await post(bot);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: { queued: true } });
    expect(await jobs()).toBe(before);
    // A person's message sent after it arrives; the bot's never does.
    const person = valid();
    expect((await post(person)).status).toBe(200);
    await arrives(person.name);
    expect(await enquiriesFrom(bot.name)).toEqual([]);
  });

  it(`per sender: ${PER_SENDER} messages an hour, counted across both instances, then 429`, async () => {
    const email = sender();
    for (const via of [0, 1]) expect((await post({ ...valid(), email }, via)).status).toBe(200);
    const before = await jobs();
    // Same sender, other case: the same person.
    const refused = await post({ ...valid(), email: email.toUpperCase() }, 0);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: CONTACT_TEXTS.tooMany });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await post({ ...valid(), email }, 1)).status).toBe(429);
    expect(await jobs()).toBe(before);
    // Another sender from the same address still may.
    expect((await post(valid(), 1)).status).toBe(200);
  });

  it(`per address: ${PER_ADDRESS} messages an hour across both instances, whatever X-Forwarded-For the client sends`, async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await post(valid(), i % 2)).status).toBe(200);
    const before = await jobs();
    for (const via of [0, 1]) {
      const refused = await post(valid(), via);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: CONTACT_TEXTS.tooMany });
    }
    // The gateway is the edge: a client's own X-Forwarded-For does not make it another address.
    expect((await post(valid(), 0, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    expect(await jobs()).toBe(before);
    // Another client (as a gateway reports it to the service) has a limit of its own.
    const other = await call((instances[1] as StartedService<NotificationContext>).url, '/send/info', {
      method: 'POST',
      json: valid(),
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(other.status).toBe(200);
  });

  it('a retry with the same Idempotency-Key sends once and counts once', async () => {
    const email = sender();
    const key = randomUUID();
    const enquiry = { ...valid(), email };
    for (let i = 0; i < PER_SENDER + 1; i++)
      expect((await post(enquiry, i % 2, { 'idempotency-key': key })).status).toBe(200);
    expect((await post({ ...valid(), email })).status).toBe(200);
    await arrives(enquiry.name);
    expect(await enquiriesFrom(enquiry.name)).toHaveLength(1);
  });
});
