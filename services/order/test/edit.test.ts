/** PUT /estimate/{id}: edits, the 3-day rule at its boundary, read-only names, staff lines, cancel. */
import {
  addCustomer,
  catalogueProduct,
  daysFromToday,
  eventsOf,
  type Order,
  orderCall,
  qboSynced,
  startOrder,
  stopAndClean,
  submitted,
  type TestCustomer,
  tokenFor,
} from './support';

let service: Order;
let alice: TestCustomer;
let bob: TestCustomer;
let admin: string;

beforeAll(async () => {
  service = await startOrder();
  admin = tokenFor(service, 'superadmin');
  alice = await addCustomer(service);
  bob = await addCustomer(service);
});
afterAll(() => stopAndClean(service));

const put = (token: string, id: string, body: unknown) =>
  orderCall(service, 'PUT', `/estimate/${id}`, token, body);
const TOO_LATE =
  'This event will occur in less than 3 days. If you need to change your order please contact us.';

describe('editing the event and will-call fields', () => {
  it("sets the fields and hasBeenModified ('Pending Approval'), publishes EstimateUpdated once", async () => {
    const { id } = await submitted(service, alice, { room: 'Hall A' });
    const res = await put(alice.token, id, {
      location: '  Garden Terrace ',
      room: null,
      commentsOnEvent: 'Bring candles',
      customerName: alice.company,
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      status: 'Pending',
      hasBeenModified: true,
      location: 'Garden Terrace',
      room: null,
      commentsOnEvent: 'Bring candles',
      customerName: alice.company,
      groupName: 'Smith Wedding',
    });
    expect(res.headers.get('can-be-modified')).toBe('true');
    const stored = await orderCall(service, 'GET', `/estimate/${id}`, alice.token);
    expect(stored.body.result).toMatchObject({ location: 'Garden Terrace', hasBeenModified: true });

    const events = await eventsOf(service, id);
    expect(events.map((e) => e.type)).toEqual(['EstimateSubmitted', 'EstimateUpdated']);
    expect(events[1]?.payload).toMatchObject({
      actor: { role: 'customer', userId: alice.id },
      changed: ['location', 'room', 'commentsOnEvent'],
      order: {
        orderType: 'estimate',
        hasBeenModified: true,
        revision: 1,
        details: { location: 'Garden Terrace' },
      },
    });
  });

  it('changes nothing (and publishes nothing) when the values are the same', async () => {
    const { id } = await submitted(service, alice);
    const res = await put(alice.token, id, { location: 'Grand Hall', groupName: ' Smith Wedding ' });
    expect(res.status).toBe(200);
    expect(res.body.result.hasBeenModified).toBe(false);
    expect((await eventsOf(service, id)).map((e) => e.type)).toEqual(['EstimateSubmitted']);
  });

  it('sets the will-call customer name when will call comes into use, and drops it when it goes', async () => {
    const { id } = await submitted(service, alice);
    const on = await put(alice.token, id, { willCallPickupDate: '2031-06-13' });
    expect(on.body.result).toMatchObject({
      willCallPickupDate: '2031-06-13',
      willCallCustomerName: alice.company,
    });
    const off = await put(alice.token, id, { willCallPickupDate: null });
    expect(off.body.result).toMatchObject({ willCallPickupDate: null, willCallCustomerName: null });
  });

  it.each([
    [{ customerName: 'Someone Else' }, 'customerName is read-only'],
    [
      { willCallCustomerName: 'Someone Else', willCallPickupDate: '2031-06-13' },
      'willCallCustomerName is read-only',
    ],
    [{ location: '   ' }, 'location is required'],
    [{ groupName: null }, 'groupName is required'],
    [{ eventDate: '2031-02-30' }, 'eventDate must be a real date'],
    [{ room: 'x'.repeat(201) }, 'room must be at most 200 characters'],
    [{ color: 'red' }, "Unknown field 'color'"],
    [{ status: 'Completed' }, "status must be 'Voided'"],
    [{ status: 'Voided', room: 'B' }, 'status cannot be changed together with other fields'],
  ])('answers 400 for %j', async (body, message) => {
    const { id } = await submitted(service, alice);
    const res = await put(alice.token, id, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('prices lines from the catalogue: staff add and change them, customers change and remove only', async () => {
    await catalogueProduct(service, 'SEA-CH-001', 1250, 1000, { name: 'Chair' });
    await catalogueProduct(service, 'LAB', 10_000, 5, { name: 'Labor', description: 'Crew', qboId: '9' });
    const { id } = await submitted(service, alice);
    const lines = [
      { id: 'SEA-CH-001', name: 'Chair', qty: 4, price: 0.01 },
      { id: 'LAB', name: 'Cheap', description: 'x', qty: 1, price: 1, qboId: null },
    ];
    const byCustomer = await put(alice.token, id, { CartProducts: lines });
    expect(byCustomer.status).toBe(403);
    expect(byCustomer.body.message).toBe('Only staff can add products to an order');
    const byStaff = await put(admin, id, { CartProducts: lines });
    expect(byStaff.status).toBe(200);
    // subtotal 50 + 100 = 150; tax round((15000 + 35000) × 0.081) cents = 40.50
    expect(byStaff.body.result).toMatchObject({
      hasBeenModified: true,
      subtotal: 150,
      truckingFee: 350,
      salesTax: 40.5,
      total: 540.5,
      CartProducts: [
        { id: 'SEA-CH-001', name: 'Chair', description: 'About SEA-CH-001', qty: 4, price: 12.5, total: 50 },
        { id: 'LAB', name: 'Labor', description: 'Crew', qty: 1, price: 100, total: 100, qboId: '9' },
      ],
    });
    const events = await eventsOf(service, id);
    expect(events.at(-1)?.payload).toMatchObject({
      actor: { role: 'staff' },
      changed: ['CartProducts'],
      order: { subtotalCents: 15_000, taxCents: 4050, totalCents: 54_050 },
    });
    // The customer changes a quantity and removes a line of their own order.
    const mine = await put(alice.token, id, { CartProducts: [{ id: 'SEA-CH-001', qty: 2 }] });
    expect(mine.status).toBe(200);
    expect(mine.body.result).toMatchObject({ subtotal: 25, CartProducts: [{ id: 'SEA-CH-001', qty: 2 }] });
    expect(mine.body.result.CartProducts).toHaveLength(1);
    expect((await eventsOf(service, id)).at(-1)?.payload).toMatchObject({
      actor: { role: 'customer', userId: alice.id },
      changed: ['CartProducts'],
    });
  });
});

describe('the 3-day rule at its boundary', () => {
  it.each([
    [3, 200],
    [2, 409],
  ])('an event %i days away: a customer edit answers %i; staff may always', async (days, status) => {
    const { id } = await submitted(service, alice, { eventDate: daysFromToday(days) });
    const get = await orderCall(service, 'GET', `/estimate/${id}`, alice.token);
    expect(get.headers.get('can-be-modified')).toBe(String(status === 200));
    const res = await put(alice.token, id, { room: 'B' });
    expect(res.status).toBe(status);
    if (status === 409) {
      expect(res.body.message).toBe(TOO_LATE);
      expect(get.body.result.actions.edit).toEqual({ allowed: false, reason: TOO_LATE });
      const cancel = await put(alice.token, id, { status: 'Voided' });
      expect(cancel.status).toBe(409);
      expect(cancel.body.message).toBe(TOO_LATE);
    }
    const staffGet = await orderCall(service, 'GET', `/estimate/${id}`, admin);
    expect(staffGet.headers.get('can-be-modified')).toBe('true');
    expect((await put(admin, id, { room: 'C' })).status).toBe(200);
  });

  it('moving the event inside 3 days is an edit like any other (judged on the stored date)', async () => {
    const { id } = await submitted(service, alice, { eventDate: daysFromToday(10) });
    const res = await put(alice.token, id, { eventDate: daysFromToday(1) });
    expect(res.status).toBe(200);
    expect(res.headers.get('can-be-modified')).toBe('false');
  });
});

describe('QuickBooks and modification', () => {
  it("an edit of an Open estimate waits for QuickBooks' update, which clears hasBeenModified", async () => {
    const { id } = await submitted(service, alice);
    await qboSynced(service, 'estimate', id, 'created', '500', '0');
    const staffView = await orderCall(service, 'GET', `/estimate/${id}`, admin);
    expect(staffView.body.result.actions).toMatchObject({
      sendToQbo: { allowed: false, reason: 'This order is already in Quick Books.' },
      updateInQbo: { allowed: false },
    });
    await put(alice.token, id, { room: 'Salon' });
    const modified = await orderCall(service, 'GET', `/estimate/${id}`, admin);
    expect(modified.body.result).toMatchObject({ status: 'Open', hasBeenModified: true });
    expect(modified.body.result.actions.updateInQbo).toEqual({ allowed: true });
    await qboSynced(service, 'estimate', id, 'updated', '500', '1');
    const approved = await orderCall(service, 'GET', `/estimate/${id}`, alice.token);
    expect(approved.body.result).toMatchObject({ status: 'Open', hasBeenModified: false, syncToken: '1' });
    const events = (await eventsOf(service, id)).map((e) => [
      e.type,
      (e.payload as { actor?: { role: string } }).actor?.role,
    ]);
    expect(events).toEqual([
      ['EstimateSubmitted', undefined],
      ['EstimateStatusChanged', 'system'],
      // Sent means offered for online acceptance (issue 30), and an approved change renews the offer.
      ['EstimateOffered', undefined],
      ['EstimateUpdated', 'customer'],
      ['EstimateUpdated', 'system'],
      ['EstimateOffered', undefined],
    ]);
  });
});

describe('cancelling estimates', () => {
  it('a customer cancels their own; then every change says it is Voided', async () => {
    const { id } = await submitted(service, alice);
    const res = await put(alice.token, id, { status: 'Voided' });
    expect(res.status).toBe(200);
    expect(res.body.result.status).toBe('Voided');
    expect(res.headers.get('can-be-modified')).toBe('false');
    for (const [token, body] of [
      [alice.token, { status: 'Voided' }],
      [alice.token, { room: 'B' }],
      [admin, { status: 'Voided' }],
      [admin, { room: 'B' }],
    ] as const) {
      const again = await put(token, id, body);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('This order is Voided');
    }
    const invoice = await orderCall(service, 'POST', '/invoice', alice.token, { EstimateId: id });
    expect(invoice.status).toBe(409);
    expect(invoice.body.message).toBe('This order is Voided');
    const events = await eventsOf(service, id);
    expect(events.map((e) => e.type)).toEqual(['EstimateSubmitted', 'EstimateStatusChanged']);
    expect(events[1]?.payload).toMatchObject({
      from: 'Pending',
      order: { status: 'Voided' },
      actor: { role: 'customer' },
    });
  });

  it('staff cancel an Open estimate (accounting-sync rejects it in QuickBooks from the event)', async () => {
    const { id } = await submitted(service, bob);
    await qboSynced(service, 'estimate', id, 'created', '501');
    const res = await put(admin, id, { status: 'Voided' });
    expect(res.body.result.status).toBe('Voided');
    expect((await eventsOf(service, id)).at(-1)?.payload).toMatchObject({
      from: 'Open',
      order: { status: 'Voided', isInQbo: true, qboId: '501' },
    });
  });
});

describe('ownership', () => {
  it("answers 404 'Estimate not found' when a customer changes another's estimate", async () => {
    const { id } = await submitted(service, bob);
    for (const body of [{ room: 'B' }, { status: 'Voided' }]) {
      const res = await put(alice.token, id, body);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Estimate not found');
    }
    const unchanged = await orderCall(service, 'GET', `/estimate/${id}`, bob.token);
    expect(unchanged.body.result).toMatchObject({ status: 'Pending', room: null });
  });

  it('answers 401 without a session and 400 for a malformed id', async () => {
    const { id } = await submitted(service, bob);
    expect((await orderCall(service, 'PUT', `/estimate/${id}`, '', { room: 'B' })).status).toBe(401);
    expect((await put(bob.token, 'nope', { room: 'B' })).status).toBe(400);
  });
});

describe('concurrent changes', () => {
  it('two edits at once both land, one after the other (revision guard), each with its event', async () => {
    const { id } = await submitted(service, alice);
    const answers = await Promise.all([
      put(alice.token, id, { room: 'North' }),
      put(admin, id, { loadInTime: '08:00' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const stored = await orderCall(service, 'GET', `/estimate/${id}`, admin);
    expect(stored.body.result).toMatchObject({ room: 'North', loadInTime: '08:00' });
    const updates = (await eventsOf(service, id)).filter((e) => e.type === 'EstimateUpdated');
    expect(updates.map((e) => (e.payload as { order: { revision: number } }).order.revision)).toEqual([1, 2]);
  });

  it('a cancel racing an edit: exactly one status change, and no edit after it', async () => {
    const { id } = await submitted(service, alice);
    const [cancel, edit] = await Promise.all([
      put(alice.token, id, { status: 'Voided' }),
      put(alice.token, id, { room: 'X' }),
    ]);
    expect(cancel.status).toBe(200);
    const events = await eventsOf(service, id);
    const voided = events.findIndex((e) => e.type === 'EstimateStatusChanged');
    expect(events.filter((e) => e.type === 'EstimateStatusChanged')).toHaveLength(1);
    // The edit either landed before the cancel or was refused after it.
    if (edit.status === 200)
      expect(events.findIndex((e) => e.type === 'EstimateUpdated')).toBeLessThan(voided);
    else expect(edit.body.message).toBe('This order is Voided');
  });
});
