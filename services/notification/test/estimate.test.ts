import { randomUUID } from 'node:crypto';
import { EstimateSubmitted, estimateTotals, type PayloadOf } from '@decor/contracts';
import { newEvent, PROCESSED_EVENTS_COLLECTION, type RunningService } from '@decor/kit';
import { eventually } from '@decor/kit/testing';
import {
  address,
  consumed,
  jobCount,
  mailsArrive,
  mailTo,
  type Notification,
  publish,
  queueIdle,
  RUN_ID,
  STAFF,
  send,
  startNotification,
  startWorker,
  stopAndClean,
  tokenFor,
} from './support';

let service: Notification;
let worker: RunningService;

beforeAll(async () => {
  service = await startNotification();
  worker = await startWorker();
});
afterAll(() => stopAndClean(service, worker));

const objectId = () => randomUUID().replace(/-/g, '').slice(0, 24);

function estimateSubmitted(customerEmail: string, docNumber: string, details: Record<string, string>) {
  const lines = [
    {
      productId: 'CHAIR-GOLD',
      name: 'Gold Chiavari Chair',
      description: 'Gold',
      qty: 40,
      priceCents: 675,
      totalCents: 27000,
    },
    {
      productId: 'BAR-FRONT',
      name: 'Bar Front <Mirror>',
      description: '',
      qty: 1,
      priceCents: 18550,
      totalCents: 18550,
    },
  ];
  const estimateId = objectId();
  const payload: PayloadOf<typeof EstimateSubmitted> = {
    estimateId,
    docNumber,
    status: 'Pending',
    userId: objectId(),
    cartId: objectId(),
    customer: { email: customerEmail, displayName: 'Ana Diaz', companyName: 'Evergreen & Sons' },
    details,
    lines,
    ...estimateTotals(45550, 35000),
    submittedAt: new Date().toISOString(),
  };
  return newEvent(EstimateSubmitted, { aggregateId: estimateId, correlationId: randomUUID(), payload });
}

const DETAILS = {
  customerName: 'Evergreen & Sons',
  groupName: 'Diaz–Lee wedding',
  eventDate: '2027-03-13',
  location: 'Harbor <Pavilion>',
  eventStartTime: '17:30',
  strikeTime: '23:00',
  willCallCustomerName: 'Evergreen & Sons',
};

/** The staff notices of one estimate (the staff inbox is shared by this file's tests). */
async function staffMailsFor(docNumber: string) {
  return (await mailTo(STAFF)).filter((m) => m.Subject.includes(`#${docNumber} `));
}

describe('EstimateSubmitted → e-mails', () => {
  it("sends the customer's confirmation and the staff's notice with lines, totals and details, once", async () => {
    const customer = address('customer');
    const docNumber = nextDocNumber();
    const event = estimateSubmitted(customer, docNumber, {
      ...DETAILS,
      willCallPickupDate: '2027-03-12',
      willCallPickupTime: '09:30',
    });
    await publish(service, event);

    const [mail] = await mailsArrive(customer);
    expect(mail?.Subject).toBe(
      `Your order request (estimate #${docNumber}) was received and is pending review`,
    );
    const link = `http://127.0.0.1:8080/orders/estimate/${event.payload.estimateId}`;
    for (const part of [mail?.Text, mail?.HTML]) {
      // 40 × 6.75 = 270.00; 185.50; subtotal 455.50 + trucking 350.00 = 805.50; tax 8.1 % = 65.2455 → 65.25
      for (const amount of ['$6.75', '$270.00', '$185.50', '$455.50', '$350.00', '$65.25', '$870.75'])
        expect(part).toContain(amount);
      expect(part).toContain('Saturday, March 13th, 2027');
      expect(part).toContain('5:30 PM');
      expect(part).toContain('11:00 PM');
      expect(part).toContain('Friday, March 12th, 2027');
      expect(part).toContain('9:30 AM');
      expect(part).toContain(link);
    }
    expect(mail?.Text).toContain('Gold Chiavari Chair (CHAIR-GOLD): 40 × $6.75 = $270.00');
    expect(mail?.Text).toMatch(/Total: +\$870\.75/);
    expect(mail?.HTML).toContain('Harbor &lt;Pavilion&gt;');
    expect(mail?.HTML).toContain('Bar Front &lt;Mirror&gt;');
    expect(mail?.HTML).toContain(`href="${link}"`);

    const [notice] = await staffNotice(docNumber);
    expect(notice?.Subject).toBe(`New estimate #${docNumber} from Evergreen & Sons – pending review`);
    expect(notice?.Text).toContain('Name: Ana Diaz');
    expect(notice?.Text).toContain(`E-mail: ${customer}`);
    expect(notice?.Text).toMatch(/Total: +\$870\.75/);
    expect(notice?.Text).toContain('Pickup Time: 9:30 AM');
    expect(notice?.HTML).toContain(`href="${link}"`);
    expect(notice?.HTML).toContain('Evergreen &amp; Sons');

    // Redelivered: the consumer skips the known event; and even if its "processed" record was lost
    // (crash between queueing and recording), the job ids of the two e-mails stop a second copy.
    await publish(service, event);
    await consumed(service, 'order');
    const processed = service.ctx.connection.collection(PROCESSED_EVENTS_COLLECTION);
    await processed.deleteOne({ _id: `${RUN_ID}.notification.emails:${event.id}` } as never);
    await publish(service, event);
    await consumed(service, 'order');
    await queueIdle(service);
    expect(await mailTo(customer)).toHaveLength(1);
    expect(await staffMailsFor(docNumber)).toHaveLength(1);
    expect((await service.ctx.emails.getJob(`email.${event.id}.customer`))?.finishedOn).toBeDefined();
    expect((await service.ctx.emails.getJob(`email.${event.id}.staff`))?.finishedOn).toBeDefined();
  });

  it('leaves the will call out when only its prefilled name is there', async () => {
    const customer = address('no-will-call');
    const docNumber = nextDocNumber();
    await publish(service, estimateSubmitted(customer, docNumber, DETAILS));
    const [mail] = await mailsArrive(customer);
    expect(mail?.Text).toContain('Event details');
    expect(mail?.Text).not.toContain('Will call');
    const [notice] = await staffNotice(docNumber);
    expect(notice?.Text).not.toContain('Will call');
  });
});

describe('POST /send/newEstimate', () => {
  it('answers 200 and sends no second copy of the estimate e-mails', async () => {
    const customer = address('client-call');
    const docNumber = nextDocNumber();
    const event = estimateSubmitted(customer, docNumber, DETAILS);
    await publish(service, event);
    await mailsArrive(customer);
    await staffNotice(docNumber);
    await queueIdle(service);
    const jobsBefore = await jobCount(service);

    // The spec's client calls this right after POST /estimate, with the same body.
    const answer = await send(service.url, '/send/newEstimate', {
      token: tokenFor(service, 'customer'),
      json: { CartId: event.payload.cartId, status: 'Pending', ...DETAILS },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      result: { queued: false, message: 'The estimate e-mails are sent when the estimate is submitted' },
    });

    await new Promise((r) => setTimeout(r, 1500)); // room for a wrongly queued e-mail to go out
    await queueIdle(service);
    expect(await jobCount(service)).toBe(jobsBefore);
    expect(await mailTo(customer)).toHaveLength(1);
    expect(await staffMailsFor(docNumber)).toHaveLength(1);
  });

  it('needs a session and an object with CartId', async () => {
    const anonymous = await send(service.url, '/send/newEstimate', { json: { CartId: objectId() } });
    expect(anonymous.status).toBe(401);
    const token = tokenFor(service, 'customer');
    const noCart = await send(service.url, '/send/newEstimate', { token, json: { status: 'Pending' } });
    expect(noCart.status).toBe(400);
    expect(noCart.body).toEqual({ message: 'CartId is required' });
    const notObject = await send(service.url, '/send/newEstimate', { token, json: ['x'] });
    expect(notObject.status).toBe(400);
  });
});

/** The staff notice of the estimate, once it has arrived. */
function staffNotice(docNumber: string) {
  return eventually(
    async () => {
      const mails = await staffMailsFor(docNumber);
      return mails.length > 0 ? mails : undefined;
    },
    30_000,
    `the staff notice of estimate #${docNumber}`,
  );
}

let lastDocNumber = 1000;
/** Unique within this file, whose staff inbox is its own. */
const nextDocNumber = () => String(++lastDocNumber);
