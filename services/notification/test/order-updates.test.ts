import { randomUUID } from 'node:crypto';
import {
  EstimateOfferExpired,
  EstimateOfferExtended,
  EstimateOffered,
  EstimateStatusChanged,
  EstimateSubmitted,
  EstimateUpdated,
  type EventContract,
  estimateTotals,
  InvoiceCompleted,
  InvoiceCreated,
  InvoiceStatusChanged,
  InvoiceUpdated,
  type OrderState,
  type PayloadOf,
} from '@decor/contracts';
import { type EventContext, newEvent, PROCESSED_EVENTS_COLLECTION, type RunningService } from '@decor/kit';
import { eventually } from '@decor/kit/testing';
import type { Static } from '@sinclair/typebox';
import { orderEventHandlers } from '../src/events/order-events';
import {
  address,
  type CaughtMail,
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

type Order = Static<typeof OrderState>;
const objectId = () => randomUUID().replace(/-/g, '').slice(0, 24);
const customerActor = (order: Order) => ({ role: 'customer' as const, userId: order.userId });
const staffActor = { role: 'staff' as const, userId: objectId() };
const systemActor = { role: 'system' as const, userId: null };

let lastDocNumber = 5000;
/** Unique within this file, whose staff inbox is its own. */
const nextDocNumber = () => String(++lastDocNumber);

function estimate(customerEmail: string, overrides: Partial<Order> = {}): Order {
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
  return {
    orderType: 'estimate',
    id: objectId(),
    docNumber: nextDocNumber(),
    userId: objectId(),
    cartId: objectId(),
    status: 'Pending',
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: false,
    qboId: null,
    customer: { email: customerEmail, displayName: 'Ana <i>Diaz</i>', companyName: 'Evergreen & Sons' },
    details: {
      customerName: 'Evergreen & Sons',
      groupName: 'Diaz–Lee wedding',
      eventDate: '2027-03-13',
      location: 'Harbor <Pavilion>',
      eventStartTime: '17:30',
      willCallCustomerName: 'Evergreen & Sons',
    },
    lines,
    ...estimateTotals(45550, 35000),
    revision: 1,
    ...overrides,
  };
}

function invoiceOf(est: Order, overrides: Partial<Order> = {}): Order {
  const { hasInvoice: _h, ...rest } = est;
  return {
    ...rest,
    orderType: 'invoice',
    id: objectId(),
    docNumber: nextDocNumber(),
    estimateId: est.id,
    status: 'Pending',
    isInQbo: false,
    qboId: null,
    hasBeenModified: false,
    revision: 1,
    ...overrides,
  };
}

function event<C extends EventContract>(contract: C, payload: PayloadOf<C>) {
  const { order } = payload as { order: Order };
  return newEvent(contract, { aggregateId: order.id, correlationId: randomUUID(), payload });
}

function submitted(order: Order) {
  const payload: PayloadOf<typeof EstimateSubmitted> = {
    estimateId: order.id,
    docNumber: order.docNumber,
    status: 'Pending',
    userId: order.userId,
    cartId: order.cartId,
    customer: order.customer,
    details: order.details,
    lines: order.lines,
    subtotalCents: order.subtotalCents,
    truckingCents: order.truckingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    submittedAt: new Date().toISOString(),
  };
  return newEvent(EstimateSubmitted, { aggregateId: order.id, correlationId: randomUUID(), payload });
}

/** The staff mails about one order (the staff inbox is shared by this file's tests). */
async function staffMailsAbout(docNumber: string): Promise<CaughtMail[]> {
  return (await mailTo(STAFF)).filter((m) => m.Subject.includes(`#${docNumber} `));
}

/** Waits until everything published so far is handled and sent. */
async function settled(): Promise<void> {
  await consumed(service, 'order');
  await queueIdle(service);
}

const subjects = (mails: CaughtMail[]) => mails.map((m) => m.Subject).sort();

describe('order lifecycle events → e-mails', () => {
  it('a whole estimate-to-completed-invoice lifecycle: each piece of news once, to the right people, every event delivered twice', async () => {
    const customer = address('lifecycle');
    const pending = estimate(customer);
    const open = { ...pending, status: 'Open' as const, isInQbo: true, qboId: '41', revision: 2 };
    const edited = { ...open, hasBeenModified: true, revision: 3 };
    const reapproved = { ...edited, hasBeenModified: false, revision: 4 };
    const closed = { ...reapproved, status: 'Closed' as const, hasInvoice: true, revision: 5 };
    const invoice = invoiceOf(closed);
    const invoiceOpen = { ...invoice, status: 'Open' as const, isInQbo: true, qboId: '77', revision: 2 };
    const invoiceEdited = {
      ...invoiceOpen,
      details: { ...invoiceOpen.details, location: 'Pier 7 <North> & "Deck"' },
      revision: 3,
    };
    const completed = { ...invoiceEdited, status: 'Completed' as const, revision: 4 };

    const events = [
      // Pending → Open: the QuickBooks sync landed (the system): "approved" to the customer.
      event(EstimateStatusChanged, { order: open, from: 'Pending', actor: systemActor }),
      // … told by its offer for online acceptance, written right after (issue 30).
      event(EstimateOffered, {
        order: open,
        opened: true,
        depositCents: 0,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        agreementVersion: 1,
      }),
      // The customer edits: the staff hear of it.
      event(EstimateUpdated, {
        order: edited,
        actor: customerActor(edited),
        changed: ['location', 'hasBeenModified'],
      }),
      // Staff update it in QuickBooks, which clears the flag: the customer hears the edit was approved.
      event(EstimateUpdated, { order: reapproved, actor: systemActor, changed: ['hasBeenModified'] }),
      // The customer requests an invoice: both hear of it; the estimate turning Closed is the same news.
      event(InvoiceCreated, { order: invoice, actor: customerActor(invoice) }),
      event(EstimateStatusChanged, { order: closed, from: 'Open', actor: customerActor(closed) }),
      // Staff send the invoice: the customer hears it was approved.
      event(InvoiceStatusChanged, { order: invoiceOpen, from: 'Pending', actor: staffActor }),
      // Staff change the location: the customer hears what changed.
      event(InvoiceUpdated, { order: invoiceEdited, actor: staffActor, changed: ['location'] }),
      // Complete Order: two events, one piece of news.
      event(InvoiceStatusChanged, { order: completed, from: 'Open', actor: staffActor }),
      event(InvoiceCompleted, { order: completed, actor: staffActor }),
    ];
    await publish(service, ...events);
    await publish(service, ...events); // redelivered
    // And once more with the consumer's memory of them lost (a crash, another instance mid-rebalance):
    // the job ids alone stop a second copy.
    await settled();
    const processed = service.ctx.connection.collection(PROCESSED_EVENTS_COLLECTION);
    await processed.deleteMany({
      _id: { $in: events.map((e) => `${RUN_ID}.notification.emails:${e.id}`) },
    } as never);
    await publish(service, ...events);
    await settled();

    const toCustomer = await mailsArrive(customer, 6);
    expect(subjects(toCustomer)).toEqual(
      [
        `Your estimate #${pending.docNumber} was approved`,
        `The changes to your estimate #${pending.docNumber} were approved`,
        `Your invoice request was received (invoice #${invoice.docNumber}, pending review)`,
        `Your invoice #${invoice.docNumber} was approved`,
        `Your invoice #${invoice.docNumber} was updated`,
        `Your order (invoice #${invoice.docNumber}) is complete`,
      ].sort(),
    );
    const toStaff = [
      ...(await staffMailsAbout(pending.docNumber)),
      ...(await staffMailsAbout(invoice.docNumber)),
    ];
    expect(subjects(toStaff)).toEqual(
      [
        `Estimate #${pending.docNumber} was edited by Evergreen & Sons – pending update`,
        `Invoice #${invoice.docNumber} requested by Evergreen & Sons – pending review`,
      ].sort(),
    );

    // What the mails say: the order's link, lines and totals in the summary formats, values escaped.
    const updated = toCustomer.find((m) => m.Subject.endsWith('was updated'));
    const invoiceLink = `http://127.0.0.1:8080/orders/invoice/${invoice.id}`;
    expect(updated?.Text).toContain('What changed: Location');
    expect(updated?.Text).toContain('Location: Pier 7 <North> & "Deck"');
    expect(updated?.HTML).toContain('Pier 7 &lt;North&gt; &amp; &quot;Deck&quot;');
    expect(updated?.HTML).not.toContain('<North>');
    expect(updated?.HTML).toContain('Hello Ana &lt;i&gt;Diaz&lt;/i&gt;,');
    expect(updated?.HTML).toContain('Bar Front &lt;Mirror&gt;');
    expect(updated?.HTML).toContain(`href="${invoiceLink}"`);
    expect(updated?.Text).toContain(invoiceLink);
    for (const part of [updated?.Text, updated?.HTML]) {
      for (const amount of ['$6.75', '$270.00', '$185.50', '$455.50', '$350.00', '$65.25', '$870.75'])
        expect(part).toContain(amount);
      expect(part).toContain('Saturday, March 13th, 2027');
      expect(part).toContain('5:30 PM');
    }
    const edit = toStaff.find((m) => m.Subject.includes('edited'));
    const estimateLink = `http://127.0.0.1:8080/orders/estimate/${pending.id}`;
    expect(edit?.Text).toContain(`E-mail: ${customer}`);
    expect(edit?.Text).toContain('Status: Pending Update');
    expect(edit?.HTML).toContain(`href="${estimateLink}"`);
    expect(edit?.HTML).toContain('Evergreen &amp; Sons');
    expect(edit?.HTML).toContain('Harbor &lt;Pavilion&gt;');

    // One job per recipient of each event, its id derived from the event: nothing else was queued.
    const approvedJob = await service.ctx.emails.getJob(`email.${events[1]?.id}.customer`);
    expect(approvedJob?.data.email.subject).toBe(`Your estimate #${pending.docNumber} was approved`);
    expect(await service.ctx.emails.getJob(`email.${events[0]?.id}.staff`)).toBeUndefined();
  });

  it('a cancellation by the customer is told to them and to the staff; one by staff only to the customer', async () => {
    const customer = address('cancel');
    const mine = estimate(customer, { status: 'Voided' });
    const theirs = estimate(customer, { status: 'Voided', isInQbo: true, qboId: '9' });
    const events = [
      event(EstimateStatusChanged, { order: mine, from: 'Pending', actor: customerActor(mine) }),
      event(EstimateStatusChanged, { order: theirs, from: 'Open', actor: staffActor }),
    ];
    await publish(service, ...events, ...events);
    await settled();
    expect(subjects(await mailsArrive(customer, 2))).toEqual(
      [
        `Your estimate #${mine.docNumber} was cancelled`,
        `Your estimate #${theirs.docNumber} was cancelled`,
      ].sort(),
    );
    expect(subjects(await staffMailsAbout(mine.docNumber))).toEqual([
      `Estimate #${mine.docNumber} was cancelled by Evergreen & Sons`,
    ]);
    expect(await staffMailsAbout(theirs.docNumber)).toEqual([]);
  });

  it('bookkeeping-only updates send nothing', async () => {
    const customer = address('quiet');
    const order = estimate(customer, { status: 'Open', isInQbo: true, qboId: '5' });
    await publish(
      service,
      event(EstimateUpdated, { order, actor: systemActor, changed: ['qboId', 'isInQbo'] }),
      event(EstimateUpdated, { order, actor: staffActor, changed: [] }),
      event(EstimateStatusChanged, { order, from: 'Open', actor: staffActor }),
    );
    await settled();
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailTo(customer)).toEqual([]);
    expect(await staffMailsAbout(order.docNumber)).toEqual([]);
  });

  it('an offer that ended unaccepted: one e-mail to the customer, whatever the redeliveries', async () => {
    const customer = address('expired');
    const order = estimate(customer, { status: 'Open', isInQbo: true, qboId: '12', revision: 4 });
    const expired = event(EstimateOfferExpired, { order, expiresAt: new Date().toISOString() });
    await publish(service, expired, expired);
    await settled();
    // Redelivered after the consumer's memory of it was lost: the job id (from the event) stops a copy.
    await service.ctx.connection
      .collection(PROCESSED_EVENTS_COLLECTION)
      .deleteMany({ _id: `${RUN_ID}.notification.emails:${expired.id}` } as never);
    await publish(service, expired);
    await settled();
    const [mail, ...more] = await mailsArrive(customer);
    expect(more).toEqual([]);
    expect(mail?.Subject).toBe(`Your estimate #${order.docNumber} can no longer be accepted`);
    expect(mail?.Text).toContain('please contact us: we can extend it');
    expect((await service.ctx.emails.getJob(`email.${expired.id}.customer`))?.data.email.to).toBe(customer);
    await new Promise((r) => setTimeout(r, 500)); // room for a second copy to arrive
    expect(await mailTo(customer)).toHaveLength(1);
    expect(await staffMailsAbout(order.docNumber)).toEqual([]);
  });

  it('an offer staff extended: one e-mail to the customer with the new end and the link, whatever the redeliveries', async () => {
    const customer = address('extended');
    const order = estimate(customer, { status: 'Open', isInQbo: true, qboId: '13', revision: 6 });
    const extended = event(EstimateOfferExtended, {
      order,
      actor: staffActor,
      expiresAt: '2031-01-17T16:00:00.000Z',
      previousExpiresAt: '2031-01-10T16:00:00.000Z',
      holdsTaken: true,
    });
    await publish(service, extended, extended);
    await settled();
    // Redelivered after the consumer's memory of it was lost: the job id (from the event) stops a copy.
    await service.ctx.connection
      .collection(PROCESSED_EVENTS_COLLECTION)
      .deleteMany({ _id: `${RUN_ID}.notification.emails:${extended.id}` } as never);
    await publish(service, extended);
    await settled();
    const [mail, ...more] = await mailsArrive(customer);
    expect(more).toEqual([]);
    expect(mail?.Subject).toBe(`More time to accept your estimate #${order.docNumber}`);
    expect(mail?.Text).toContain('until Friday, January 17th, 2031 at 4:00 PM UTC.');
    expect(mail?.Text).toContain(`Review and accept: http`);
    expect(mail?.Text).toContain(`/orders/estimate/${order.id}/accept`);
    expect((await service.ctx.emails.getJob(`email.${extended.id}.customer`))?.data.email.to).toBe(customer);
    await new Promise((r) => setTimeout(r, 500)); // room for a second copy to arrive
    expect(await mailTo(customer)).toHaveLength(1);
    expect(await staffMailsAbout(order.docNumber)).toEqual([]);
  });

  it('two instances handling the same event at once queue each e-mail once', async () => {
    const customer = address('twice');
    const order = invoiceOf(estimate(customer, { status: 'Closed' }));
    const created = event(InvoiceCreated, { order, actor: customerActor(order) });
    // The handlers of two instances (they share the queue, as instances do), the same event at once.
    const [a, b] = [orderEventHandlers(service.ctx), orderEventHandlers(service.ctx)];
    await Promise.all([
      a.InvoiceCreated?.(created, {} as EventContext),
      b.InvoiceCreated?.(created, {} as EventContext),
    ]);
    await queueIdle(service);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailTo(customer)).toHaveLength(1);
    expect(await staffMailsAbout(order.docNumber)).toHaveLength(1);
  });
});

describe('POST /send/orderUpdate/{orderType}/{orderId}', () => {
  const body = (order: Order) => ({
    cart: { id: order.cartId, CartProducts: [{ id: 'x', name: 'Gold Chiavari Chair', qty: 40 }] },
    order: { id: order.id, DocNumber: order.docNumber, status: order.status, location: 'anything' },
    extra: 'ignored',
  });
  const customerToken = (userId: string) =>
    service.app.signToken({ id: userId, permissions: 'customer', email: address('caller') });

  it("answers the owner 200 and sends nothing (the order's events already did)", async () => {
    const customer = address('owner');
    const order = estimate(customer, { status: 'Open', hasBeenModified: true });
    await publish(service, submitted(order));
    await mailsArrive(customer); // the submission's confirmation
    await eventually(
      async () => (await staffMailsAbout(order.docNumber)).length > 0 || undefined,
      30_000,
      'notice',
    );
    await publish(
      service,
      event(EstimateUpdated, {
        order,
        actor: customerActor(order),
        changed: ['groupName', 'hasBeenModified'],
      }),
    );
    await settled();
    await eventually(
      async () => ((await staffMailsAbout(order.docNumber)).length === 2 ? true : undefined),
      30_000,
      'edit notice',
    );
    const jobsBefore = await jobCount(service);

    // The spec's client calls this right after its PUT, with the cart and the order it shows.
    const answer = await send(service.url, `/send/orderUpdate/estimate/${order.id}`, {
      token: customerToken(order.userId),
      json: body(order),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      result: { queued: false, message: 'The order e-mails are sent when the order changes' },
    });

    await new Promise((r) => setTimeout(r, 1500)); // room for a wrongly queued e-mail to go out
    await queueIdle(service);
    expect(await jobCount(service)).toBe(jobsBefore);
    expect(await mailTo(customer)).toHaveLength(1);
    expect(await staffMailsAbout(order.docNumber)).toHaveLength(2);
  });

  it('gives every caller the same answer for any order: no one learns whether an order exists, nothing is sent', async () => {
    const order = estimate(address('someone'));
    const invoice = invoiceOf({ ...order, status: 'Closed' });
    await publish(
      service,
      submitted(order),
      event(InvoiceCreated, { order: invoice, actor: customerActor(invoice) }),
    );
    await settled();
    const jobsBefore = await jobCount(service);
    const calls: [string, string, Order][] = [
      // Another customer's estimate and invoice, an estimate's id named as an invoice, an unknown order.
      [customerToken(objectId()), `/send/orderUpdate/estimate/${order.id}`, order],
      [tokenFor(service, 'customer'), `/send/orderUpdate/invoice/${invoice.id}`, invoice],
      [customerToken(order.userId), `/send/orderUpdate/invoice/${order.id}`, order],
      [customerToken(order.userId), `/send/orderUpdate/estimate/${objectId()}`, order],
      [tokenFor(service, 'admin'), `/send/orderUpdate/estimate/${objectId()}`, order],
      // The owner's own, and staff naming any order.
      [customerToken(order.userId), `/send/orderUpdate/invoice/${invoice.id}`, invoice],
      [tokenFor(service, 'superadmin'), `/send/orderUpdate/estimate/${order.id}`, order],
    ];
    for (const [token, path, o] of calls) {
      const answer = await send(service.url, path, { token, json: body(o) });
      expect([path, answer.status, answer.body]).toEqual([
        path,
        200,
        { result: { queued: false, message: 'The order e-mails are sent when the order changes' } },
      ]);
    }
    await queueIdle(service);
    expect(await jobCount(service)).toBe(jobsBefore);
  });

  it('needs a session, estimate or invoice, and a cart and an order', async () => {
    const order = estimate(address('shape'));
    const path = `/send/orderUpdate/estimate/${order.id}`;
    const anonymous = await send(service.url, path, { json: body(order) });
    expect(anonymous.status).toBe(401);
    const token = customerToken(order.userId);
    const badType = await send(service.url, `/send/orderUpdate/quote/${order.id}`, {
      token,
      json: body(order),
    });
    expect(badType.status).toBe(400);
    expect(badType.body).toEqual({ message: 'orderType must be estimate or invoice' });
    const noOrder = await send(service.url, path, { token, json: { cart: {} } });
    expect(noOrder.status).toBe(400);
    expect(noOrder.body).toEqual({ message: 'order is required' });
    const cartNotObject = await send(service.url, path, { token, json: { cart: 'x', order: {} } });
    expect(cartNotObject.status).toBe(400);
    expect(cartNotObject.body).toEqual({ message: 'cart must be an object' });
    const notObject = await send(service.url, path, { token, json: ['x'] });
    expect(notObject.status).toBe(400);
  });
});
