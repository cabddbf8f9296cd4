/**
 * The e-mails of a whole order, from the events the real order service publishes: the order service
 * and this service (with its worker) run side by side on this file's topics; the test plays the
 * user, cart and accounting-sync services by publishing their events.
 */
import { randomUUID } from 'node:crypto';
import {
  CartChanged,
  type EventContract,
  ProductUpserted,
  QboRecordSynced,
  UserCreated,
} from '@decor/contracts';
import { newEvent, type RunningService, type StartedService, startService } from '@decor/kit';
import { type Answer, call, consumerCaughtUp, eventually, serviceEnv } from '@decor/kit/testing';
import {
  address,
  type CaughtMail,
  consumed,
  mailTo,
  type Notification,
  publish,
  queueIdle,
  STAFF,
  send,
  startNotification,
  startWorker,
  stopAndClean,
} from '@decor/notification/testing';
import type { OrderContext } from '@decor/order';
import { loadOrderConfig, orderService } from '@decor/order';
import type { Static } from '@sinclair/typebox';

let notification: Notification;
let worker: RunningService;
let order: StartedService<OrderContext>;

beforeAll(async () => {
  notification = await startNotification();
  worker = await startWorker();
  order = await startService(orderService(loadOrderConfig(await serviceEnv('order'))), { exit: () => {} });
});
afterAll(async () => {
  if (order) {
    await order.ctx.connection.dropDatabase();
    await order.shutdown('test over');
  }
  await stopAndClean(notification, worker);
});

const objectId = () => randomUUID().replace(/-/g, '').slice(0, 24);

function event<C extends EventContract>(contract: C, aggregateId: string, payload: Static<C['payload']>) {
  return newEvent(contract, { aggregateId, correlationId: randomUUID(), payload });
}

/** A customer the order service knows (UserCreated, no welcome e-mail), with an active cart of one line. */
async function customerWithCart() {
  const id = objectId();
  const email = address('journey');
  await publish(
    notification,
    event(UserCreated, id, {
      userId: id,
      email,
      displayName: 'Ana <b>Diaz</b>',
      permissions: 'customer',
      companyId: objectId(),
      ownCompany: 'Evergreen & Sons',
      welcome: false,
    }),
  );
  const lines = [
    {
      id: objectId(),
      productId: 'CHAIR-GOLD',
      name: 'Gold <Chiavari> Chair',
      description: '',
      qty: 40,
      priceCents: 675,
    },
  ];
  const cart = {
    id: objectId(),
    userId: id,
    cartName: 'My cart',
    isActive: true,
    didCheckOut: false,
    createdAt: new Date().toISOString(),
    lines,
    totalCents: 27000,
  };
  // The catalogue announced the product (orders book its units by date): plenty for every journey.
  await publish(
    notification,
    event(ProductUpserted, 'CHAIR-GOLD', {
      sku: 'CHAIR-GOLD',
      name: 'Gold <Chiavari> Chair',
      description: '',
      priceCents: 675,
      quantity: 10_000,
      category: 'Chairs',
      subcategory: 'Chiavari',
      images: [],
    }),
  );
  await publish(notification, event(CartChanged, id, { cart, revision: 1 }));
  await consumerCaughtUp(order.ctx, 'users', 'user');
  await consumerCaughtUp(order.ctx, 'carts', 'cart');
  await consumerCaughtUp(order.ctx, 'products', 'catalogue');
  const token = order.app.signToken({ id, permissions: 'customer', email });
  return { id, email, token, cartId: cart.id };
}

const staffToken = () =>
  order.app.signToken({ id: objectId(), permissions: 'admin', email: address('admin') });

async function orderCall(method: string, path: string, token: string, json?: unknown): Promise<Answer> {
  const answer = await call(order.url, path, { method, token, json });
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** accounting-sync's report that QuickBooks has the record now. */
async function landed(kind: 'estimate' | 'invoice', recordId: string, action: 'created' | 'updated') {
  await publish(
    notification,
    event(QboRecordSynced, `${kind}:${recordId}`, {
      kind,
      recordId,
      qboId: `q-${recordId.slice(0, 6)}`,
      syncToken: action === 'created' ? '0' : '1',
      action,
      revision: 1,
    }),
  );
  await consumerCaughtUp(order.ctx, 'accounting', 'accounting');
}

/** Waits until `to` has exactly the mails listed so far (by subject), and no more. */
async function inbox(to: () => Promise<CaughtMail[]>, subjects: string[]): Promise<CaughtMail[]> {
  return eventually(
    async () => {
      const mails = await to();
      if (mails.length > subjects.length)
        throw new Error(`more mails than expected: ${mails.map((m) => m.Subject).join(' | ')}`);
      return mails.length === subjects.length ? mails : undefined;
    },
    30_000,
    `${subjects.length} mail(s): ${subjects.at(-1)}`,
  );
}

describe('an order from request to completed invoice, with the order service', () => {
  it('tells each piece of news once, to the customer or the staff', async () => {
    const customer = await customerWithCart();
    const admin = staffToken();

    const submitted = await orderCall('POST', '/estimate', customer.token, {
      CartId: customer.cartId,
      status: 'Pending',
      groupName: 'Diaz–Lee wedding',
      eventDate: '2031-06-14',
      location: 'Harbor <Pavilion>',
    });
    const { id: estimateId, DocNumber: n } = submitted.body.result as { id: string; DocNumber: string };
    const toCustomer: string[] = [];
    const toStaff: string[] = [];
    const customerMails = () => mailTo(customer.email);
    const staffMails = async () => (await mailTo(STAFF)).filter((m) => m.Subject.includes(`#${n} `));
    const step = async (customerSubjects: string[], staffSubjects: string[]) => {
      toCustomer.push(...customerSubjects);
      toStaff.push(...staffSubjects);
      await inbox(customerMails, toCustomer);
      await inbox(staffMails, toStaff);
    };

    await step(
      [`Your order request (estimate #${n}) was received and is pending review`],
      [`New estimate #${n} from Evergreen & Sons – pending review`],
    );

    // The customer edits the Pending estimate: the staff hear of it.
    await orderCall('PUT', `/estimate/${estimateId}`, customer.token, { location: 'Pier 7 & "Deck"' });
    await step([], [`Estimate #${n} was edited by Evergreen & Sons – pending review`]);

    // It lands in QuickBooks (the system): approved.
    await landed('estimate', estimateId, 'created');
    await step([`Your estimate #${n} was approved`], []);

    // Edited again while in QuickBooks: pending update; the QuickBooks update approves it.
    await orderCall('PUT', `/estimate/${estimateId}`, customer.token, { room: 'Ballroom <B>' });
    await step([], [`Estimate #${n} was edited by Evergreen & Sons – pending update`]);
    await landed('estimate', estimateId, 'updated');
    await step([`The changes to your estimate #${n} were approved`], []);

    // The customer requests the invoice (the estimate turns Closed: no mail of its own).
    const created = await orderCall('POST', '/invoice', customer.token, { EstimateId: estimateId });
    const invoiceId = created.body.result.id as string;
    await step(
      [`Your invoice request was received (invoice #${n}, pending review)`],
      [`Invoice #${n} requested by Evergreen & Sons – pending review`],
    );

    await landed('invoice', invoiceId, 'created');
    await step([`Your invoice #${n} was approved`], []);

    // Staff edit it, update it in QuickBooks, and complete it.
    await orderCall('PUT', `/invoice/${invoiceId}`, admin, { commentsOnEvent: 'Bring <candles> & "lights"' });
    await step([`Your invoice #${n} was updated`], []);
    await landed('invoice', invoiceId, 'updated');
    await step([`The changes to your invoice #${n} were approved`], []);
    await orderCall('PUT', `/invoice/${invoiceId}`, admin, { status: 'Completed' });
    await step([`Your order (invoice #${n}) is complete`], []);

    // Everything the order service published is handled and sent: nothing more came.
    await consumed(notification, 'order');
    await queueIdle(notification);
    await new Promise((r) => setTimeout(r, 1000));
    const customerInbox = await customerMails();
    expect(customerInbox.map((m) => m.Subject)).toEqual(toCustomer);
    expect((await staffMails()).map((m) => m.Subject)).toEqual(toStaff);

    const updated = customerInbox.find((m) => m.Subject === `Your invoice #${n} was updated`);
    const link = `http://127.0.0.1:8080/orders/invoice/${invoiceId}`;
    expect(updated?.Text).toContain('What changed: Comments On Event');
    expect(updated?.Text).toContain('Comments On Event: Bring <candles> & "lights"');
    expect(updated?.HTML).toContain('Bring &lt;candles&gt; &amp; &quot;lights&quot;');
    expect(updated?.HTML).toContain('Hello Ana &lt;b&gt;Diaz&lt;/b&gt;,');
    expect(updated?.HTML).toContain('Gold &lt;Chiavari&gt; Chair');
    expect(updated?.HTML).not.toContain('<candles>');
    expect(updated?.HTML).toContain(`href="${link}"`);
    expect(updated?.Text).toContain(link);
    // 40 × 6.75 = 270.00 + trucking 350.00 = 620.00; tax 8.1 % = 50.22; total 670.22
    for (const amount of ['$6.75', '$270.00', '$350.00', '$50.22', '$670.22'])
      expect(updated?.Text).toContain(amount);
    expect(updated?.Text).toContain('Event Date: Saturday, June 14th, 2031');

    // The order screen's call after each change answers and sends nothing more.
    const body = {
      cart: { id: customer.cartId, CartProducts: [] },
      order: { id: invoiceId, status: 'Completed' },
    };
    const own = await send(notification.url, `/send/orderUpdate/invoice/${invoiceId}`, {
      token: customer.token,
      json: body,
    });
    expect(own.status).toBe(200);
    const estimateCall = await send(notification.url, `/send/orderUpdate/estimate/${estimateId}`, {
      token: customer.token,
      json: body,
    });
    expect(estimateCall.status).toBe(200);
    const stranger = order.app.signToken({
      id: objectId(),
      permissions: 'customer',
      email: address('stranger'),
    });
    const notTheirs = await send(notification.url, `/send/orderUpdate/invoice/${invoiceId}`, {
      token: stranger,
      json: body,
    });
    // The same answer as the owner's: it tells a stranger nothing about the order.
    expect(notTheirs.status).toBe(200);
    expect(notTheirs.body).toEqual(own.body);
    await queueIdle(notification);
    expect(await customerMails()).toHaveLength(toCustomer.length);
    expect(await staffMails()).toHaveLength(toStaff.length);
  });

  it('a customer cancelling their estimate: told to them and to the staff', async () => {
    const customer = await customerWithCart();
    const submitted = await orderCall('POST', '/estimate', customer.token, {
      CartId: customer.cartId,
      status: 'Pending',
      groupName: 'Gala',
      eventDate: '2031-07-01',
      location: 'Hall',
    });
    const { id, DocNumber: n } = submitted.body.result as { id: string; DocNumber: string };
    await orderCall('PUT', `/estimate/${id}`, customer.token, { status: 'Voided' });
    const staffMails = async () => (await mailTo(STAFF)).filter((m) => m.Subject.includes(`#${n} `));
    await inbox(
      () => mailTo(customer.email),
      [
        `Your order request (estimate #${n}) was received and is pending review`,
        `Your estimate #${n} was cancelled`,
      ],
    );
    const staff = await inbox(staffMails, [
      `New estimate #${n} from Evergreen & Sons – pending review`,
      `Estimate #${n} was cancelled by Evergreen & Sons`,
    ]);
    expect(staff[1]?.Text).toContain('Evergreen & Sons cancelled estimate');
    expect(staff[1]?.Text).toContain('Status: Voided');
  });
});
