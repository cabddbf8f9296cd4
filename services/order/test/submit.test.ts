/** POST /estimate: a customer submits their active cart as an order request. */
import { CartChanged, EstimateSubmitted } from '@decor/contracts';
import { newEvent, publishEnvelopes } from '@decor/kit';
import { outboxesRelayed, RUN_ID } from '@decor/kit/testing';
import {
  addCustomer,
  allOrderEvents,
  cartProjected,
  cartState,
  customerWithCart,
  estimateBody,
  line,
  newId,
  nextRevision,
  type Order,
  publishCart,
  request,
  startOrder,
  stopAndClean,
  submit,
  tokenFor,
} from './support';

let service: Order;

beforeAll(async () => {
  service = await startOrder();
});

afterAll(() => stopAndClean(service));

const twoLines = () => [
  line('SEA-CH-001', 2, 1250, { name: 'Gold Chiavari Chair', description: 'Classic', qboId: '41' }),
  line('BAR-FR-001', 1, 8000, { name: 'Bar Front', description: 'White' }),
];

describe('POST /estimate, the first submission', () => {
  it('answers 201 {id, DocNumber 1001} and stores the estimate with exact totals and a snapshot of the lines', async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    const res = await submit(
      service,
      customer.token,
      estimateBody(cart.id, {
        customerName: 'Someone Else Inc',
        groupName: '  Smith Wedding ',
        room: ' Ballroom B ',
        operationsManager: '',
        commentsOnSetup: null,
      }),
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.result).sort()).toEqual(['DocNumber', 'id']);
    expect(res.body.result.DocNumber).toBe('1001');

    const view = await request(service.url, `/estimate/${res.body.result.id}`, { token: customer.token });
    expect(view.status).toBe(200);
    expect(view.body.result).toMatchObject({
      id: res.body.result.id,
      DocNumber: '1001',
      UserId: customer.id,
      CartId: cart.id,
      status: 'Pending',
      hasBeenModified: false,
      hasInvoice: false,
      isInQbo: false,
      qboId: null,
      // set by the server from the customer's company, whatever the client sent
      customerName: customer.company,
      groupName: 'Smith Wedding',
      eventDate: '2031-06-14',
      location: 'Grand Hall',
      room: 'Ballroom B',
      operationsManager: null,
      commentsOnSetup: null,
      willCallCustomerName: null,
      // 2 × $12.50 + 1 × $80 = $105; tax round((10500 + 35000) × 0.081) = 3686 cents
      subtotal: 105,
      truckingFee: 350,
      salesTax: 36.86,
      total: 491.86,
      User: {
        displayName: customer.displayName,
        ownCompany: customer.company,
        email: customer.email,
        qboId: null,
      },
    });
    expect(view.body.result.CartProducts).toEqual([
      {
        id: 'SEA-CH-001',
        name: 'Gold Chiavari Chair',
        description: 'Classic',
        qty: 2,
        price: 12.5,
        total: 25,
        qboId: '41',
      },
      {
        id: 'BAR-FR-001',
        name: 'Bar Front',
        description: 'White',
        qty: 1,
        price: 80,
        total: 80,
        qboId: null,
      },
    ]);
    const stored = await service.ctx.estimates.findById(res.body.result.id).lean();
    expect(stored).toMatchObject({
      subtotalCents: 10_500,
      truckingCents: 35_000,
      taxCents: 3686,
      totalCents: 49_186,
    });
  });

  it('sets the will-call customer name to the company when will call is used', async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    const res = await submit(
      service,
      customer.token,
      estimateBody(cart.id, {
        willCallCustomerName: 'Forged',
        willCallPickupDate: '2031-06-13',
        willCallPickupTime: '10:00',
      }),
    );
    expect(res.status).toBe(201);
    const view = await request(service.url, `/estimate/${res.body.result.id}`, { token: customer.token });
    expect(view.body.result).toMatchObject({
      willCallCustomerName: customer.company,
      willCallPickupDate: '2031-06-13',
      willCallPickupTime: '10:00',
      willCallReturnDate: null,
    });
  });
});

describe('POST /estimate, validation', () => {
  let token: string;
  let cartId: string;

  beforeAll(async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    token = customer.token;
    cartId = cart.id;
  });

  afterAll(async () => {
    // None of the refused requests made an estimate.
    expect(await service.ctx.estimates.countDocuments({ cartId })).toBe(0);
  });

  it.each([
    ['no groupName', { groupName: undefined }, 'groupName is required'],
    ['a blank groupName', { groupName: '   ' }, 'groupName is required'],
    ['no eventDate', { eventDate: undefined }, 'eventDate is required'],
    ['an empty location', { location: '' }, 'location is required'],
    ['February 30th', { eventDate: '2027-02-30' }, 'eventDate must be a real date'],
    ['month 13', { eventDate: '2027-13-01' }, 'eventDate must be a real date'],
    ['a date in words', { eventDate: 'next Saturday' }, 'eventDate must be a date in the form YYYY-MM-DD'],
    ['another status', { status: 'Open' }, "status must be 'Pending'"],
    ['no status', { status: undefined }, 'status is required'],
    ['no CartId', { CartId: undefined }, 'CartId is required'],
    ['a malformed CartId', { CartId: '../x' }, 'Invalid CartId'],
    ['a 201-character groupName', { groupName: 'g'.repeat(201) }, 'groupName must be at most 200 characters'],
    [
      'a 2001-character comment',
      { commentsOnEvent: 'c'.repeat(2001) },
      'commentsOnEvent must be at most 2000 characters',
    ],
    ['a number for a text', { room: 12 }, 'room must be a string or null'],
    ['an unknown field', { discount: 50 }, "Unknown field 'discount'"],
    ['a UserId', { UserId: 'someone' }, "Unknown field 'UserId'"],
  ])('answers 400 for %s', async (_case, change, message) => {
    const res = await submit(service, token, { ...estimateBody(cartId), ...change });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('answers 400 for an Idempotency-Key longer than 100 characters', async () => {
    const res = await submit(service, token, estimateBody(cartId), { 'idempotency-key': 'k'.repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('idempotency-key must be at most 100 characters');
  });
});

describe('POST /estimate, who may submit what', () => {
  it('refuses anonymous visitors (401) and staff (403)', async () => {
    const { cart } = await customerWithCart(service, twoLines());
    const anonymous = await request(service.url, '/estimate', {
      method: 'POST',
      json: estimateBody(cart.id),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Authentication required');
    for (const role of ['admin', 'superadmin'] as const) {
      const staff = await submit(service, tokenFor(service, role), estimateBody(cart.id));
      expect(staff.status).toBe(403);
      expect(staff.body.message).toBe('Only customers can submit an order request');
    }
  });

  it('answers 503 while the customer is not known here yet (no UserCreated read), and makes nothing', async () => {
    const userId = newId();
    const cart = cartState(userId, twoLines());
    await cartProjected(service, cart.id, await publishCart(service, cart));
    const res = await submit(service, tokenFor(service, 'customer', userId), estimateBody(cart.id));
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('Your account is still being set up; please try again in a moment');
    expect(await service.ctx.estimates.countDocuments({ cartId: cart.id })).toBe(0);
    // Its lines are booked before the customer is looked up: the holds were released again.
    const ledgers = await service.ctx.ledgers.find({ _id: { $in: ['SEA-CH-001', 'BAR-FR-001'] } }).lean();
    const holders = [...new Set(ledgers.flatMap((l) => l.holds.map((h) => h.orderId)))];
    expect(await service.ctx.estimates.countDocuments({ _id: { $in: holders } })).toBe(holders.length);
  });

  it("answers 404 'Cart not found' for an unknown cart and for another customer's cart", async () => {
    const { cart } = await customerWithCart(service, twoLines());
    const other = await addCustomer(service);
    const theirs = await submit(service, other.token, estimateBody(cart.id));
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Cart not found');
    const unknown = await submit(service, other.token, estimateBody(newId()));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Cart not found');
  });

  it('answers 409 for an inactive cart, a checked-out cart and an empty cart', async () => {
    const inactive = await customerWithCart(service, twoLines(), { isActive: false });
    const res1 = await submit(service, inactive.customer.token, estimateBody(inactive.cart.id));
    expect(res1.status).toBe(409);
    expect(res1.body.message).toBe('Only your active cart can be submitted');

    const checkedOut = await customerWithCart(service, twoLines(), { isActive: false, didCheckOut: true });
    const res2 = await submit(service, checkedOut.customer.token, estimateBody(checkedOut.cart.id));
    expect(res2.status).toBe(409);
    expect(res2.body.message).toBe('This cart has already been submitted');

    const empty = await customerWithCart(service, []);
    const res3 = await submit(service, empty.customer.token, estimateBody(empty.cart.id));
    expect(res3.status).toBe(409);
    expect(res3.body.message).toBe('Your cart is empty');
  });
});

describe('POST /estimate, double submissions make one estimate', () => {
  it("answers 409 'This cart has already been submitted' to a second submission without a key", async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    const first = await submit(service, customer.token, estimateBody(cart.id));
    expect(first.status).toBe(201);
    const second = await submit(service, customer.token, estimateBody(cart.id));
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('This cart has already been submitted');
    expect(await service.ctx.estimates.countDocuments({ cartId: cart.id })).toBe(1);
  });

  it('makes one estimate of three racing submissions without a key: one 201, two 409', async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    const answers = await Promise.all(
      [1, 2, 3].map(() => submit(service, customer.token, estimateBody(cart.id))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await service.ctx.estimates.countDocuments({ cartId: cart.id })).toBe(1);
  });

  it('answers the same estimate to the same Idempotency-Key sent twice at once (201, then 200)', async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    const key = { 'idempotency-key': `submit-${newId()}` };
    const answers = await Promise.all([
      submit(service, customer.token, estimateBody(cart.id), key),
      submit(service, customer.token, estimateBody(cart.id), key),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]?.body.result).toEqual(answers[1]?.body.result);
    expect(await service.ctx.estimates.countDocuments({ cartId: cart.id })).toBe(1);

    // Later retries with the key still answer it; without the key the cart is refused.
    const retry = await submit(service, customer.token, estimateBody(cart.id), key);
    expect(retry.status).toBe(200);
    expect(retry.body.result).toEqual(answers[0]?.body.result);
    const keyless = await submit(service, customer.token, estimateBody(cart.id));
    expect(keyless.status).toBe(409);
  });

  it("keeps keys per customer, and refuses a customer's key reused for another cart", async () => {
    const a = await customerWithCart(service, twoLines());
    const b = await customerWithCart(service, twoLines());
    const key = { 'idempotency-key': 'same-key-for-two-customers' };
    const resA = await submit(service, a.customer.token, estimateBody(a.cart.id), key);
    const resB = await submit(service, b.customer.token, estimateBody(b.cart.id), key);
    expect([resA.status, resB.status]).toEqual([201, 201]);
    expect(resA.body.result.id).not.toBe(resB.body.result.id);

    const another = cartState(a.customer.id, twoLines());
    await publishCart(service, another);
    const reused = await submit(service, a.customer.token, estimateBody(another.id), key);
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe('This Idempotency-Key was already used for another order request');
  });
});

describe('POST /estimate, DocNumbers', () => {
  it('gives 10 customers submitting at once 10 unique, increasing DocNumbers', async () => {
    const customers = await Promise.all(
      Array.from({ length: 12 }, () => customerWithCart(service, twoLines())),
    );
    const [first, last, ...parallel] = customers as [
      (typeof customers)[0],
      (typeof customers)[0],
      ...typeof customers,
    ];
    const before = await submit(service, first.customer.token, estimateBody(first.cart.id));
    const answers = await Promise.all(
      parallel.map(({ customer, cart }) => submit(service, customer.token, estimateBody(cart.id))),
    );
    const after = await submit(service, last.customer.token, estimateBody(last.cart.id));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const numbers = answers.map((a) => Number(a.body.result.DocNumber));
    expect(new Set(numbers).size).toBe(10);
    for (const n of numbers) {
      expect(Number.isInteger(n)).toBe(true);
      expect(n).toBeGreaterThan(Number(before.body.result.DocNumber));
      expect(n).toBeLessThan(Number(after.body.result.DocNumber));
    }
    const all = await service.ctx.estimates.find({}, { docNumber: 1 }).lean();
    expect(new Set(all.map((e) => e.docNumber)).size).toBe(all.length);
  });
});

describe('POST /estimate, reading the cart right after a change', () => {
  it('sees a line added just before submitting, behind a burst of other cart events', async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    // The customer's other cart changes 60 times (same partition, handled first), then the cart
    // service publishes the new line of this cart, and the submission follows at once.
    const other = cartState(customer.id, [], { isActive: false });
    const burst = Array.from({ length: 60 }, (_, i) =>
      newEvent(CartChanged, {
        aggregateId: customer.id,
        correlationId: 'burst',
        payload: { cart: { ...other, cartName: `Draft ${i}` }, revision: nextRevision(customer.id) },
      }),
    );
    await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, burst);
    const lines = [...cart.lines, line('LIN-001', 3, 1500, { name: 'Linen' })];
    await publishCart(service, { ...cart, lines, totalCents: 10_500 + 4500 });
    const res = await submit(service, customer.token, estimateBody(cart.id));
    expect(res.status).toBe(201);
    const stored = await service.ctx.estimates.findById(res.body.result.id).lean();
    expect(stored?.lines.map((l) => l.productId)).toEqual(['SEA-CH-001', 'BAR-FR-001', 'LIN-001']);
    expect(stored?.subtotalCents).toBe(15_000);
  });

  it('sees a cart created just before submitting', async () => {
    const customer = await addCustomer(service);
    const cart = cartState(customer.id, twoLines());
    await publishCart(service, cart);
    const res = await submit(service, customer.token, estimateBody(cart.id));
    expect(res.status).toBe(201);
  });
});

describe('EstimateSubmitted', () => {
  it('is on the order topic exactly once per estimate, with the estimate in its payload', async () => {
    const { customer, cart } = await customerWithCart(service, twoLines());
    const res = await submit(
      service,
      customer.token,
      estimateBody(cart.id, { room: 'B', willCallPickupDate: '2031-06-13' }),
      { 'x-request-id': 'submit-request-1' },
    );
    expect(res.status).toBe(201);
    const estimates = await service.ctx.estimates.find({}).lean();
    // Every estimate's outbox is published (and emptied) before we count what is on the topic.
    await outboxesRelayed([service.ctx.estimates]);
    const events = (await allOrderEvents(service)).filter((e) => e.type === EstimateSubmitted.type);
    expect(events).toHaveLength(estimates.length);
    const perEstimate = new Map<string, number>();
    for (const e of events) {
      const id = (e.payload as { estimateId: string }).estimateId;
      perEstimate.set(id, (perEstimate.get(id) ?? 0) + 1);
    }
    for (const estimate of estimates) expect(perEstimate.get(estimate._id.toString())).toBe(1);

    const mine = events.find((e) => (e.payload as { estimateId: string }).estimateId === res.body.result.id);
    expect(mine).toMatchObject({
      aggregateType: 'order',
      aggregateId: res.body.result.id,
      correlationId: 'submit-request-1',
      version: 1,
    });
    const stored = estimates.find((e) => e._id.toString() === res.body.result.id);
    expect(mine?.payload).toEqual({
      estimateId: res.body.result.id,
      docNumber: res.body.result.DocNumber,
      status: 'Pending',
      userId: customer.id,
      cartId: cart.id,
      customer: { email: customer.email, displayName: customer.displayName, companyName: customer.company },
      details: {
        customerName: customer.company,
        groupName: 'Smith Wedding',
        eventDate: '2031-06-14',
        location: 'Grand Hall',
        room: 'B',
        willCallCustomerName: customer.company,
        willCallPickupDate: '2031-06-13',
      },
      lines: [
        {
          productId: 'SEA-CH-001',
          name: 'Gold Chiavari Chair',
          description: 'Classic',
          qty: 2,
          priceCents: 1250,
          totalCents: 2500,
          qboId: '41',
        },
        {
          productId: 'BAR-FR-001',
          name: 'Bar Front',
          description: 'White',
          qty: 1,
          priceCents: 8000,
          totalCents: 8000,
        },
      ],
      subtotalCents: 10_500,
      truckingCents: 35_000,
      taxCents: 3686,
      totalCents: 49_186,
      submittedAt: stored?.createdAt.toISOString(),
    });
  });
});
