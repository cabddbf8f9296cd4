/** GET /estimate and GET /estimate/{id}: customers see their own, staff see everyone's. */
import { calendarDate } from '../src/domain/modification';
import {
  addCustomer,
  cartProjected,
  cartState,
  estimateBody,
  line,
  newId,
  type Order,
  publishCart,
  request,
  startOrder,
  stopAndClean,
  submit,
  type TestCustomer,
  tokenFor,
} from './support';

let service: Order;
let alice: TestCustomer;
let bob: TestCustomer;
/** Alice's estimates, oldest first. */
const aliceIds: string[] = [];
const aliceDocNumbers: string[] = [];
let bobId: string;
const staff = {} as Record<'admin' | 'superadmin', string>;

/** A date `days` after today (UTC, the service's default business time zone). */
function daysFromToday(days: number): string {
  return calendarDate(new Date(Date.now() + days * 24 * 60 * 60 * 1000), 'UTC');
}

/** One estimate of `customer`, from a new active cart of theirs. */
async function submitted(customer: TestCustomer, extra: Record<string, unknown> = {}) {
  const cart = cartState(customer.id, [line('SEA-CH-001', 2, 1250)]);
  await cartProjected(service, cart.id, await publishCart(service, cart));
  const res = await submit(service, customer.token, estimateBody(cart.id, extra));
  expect(res.status).toBe(201);
  return res.body.result as { id: string; DocNumber: string };
}

beforeAll(async () => {
  service = await startOrder();
  staff.admin = tokenFor(service, 'admin');
  staff.superadmin = tokenFor(service, 'superadmin');
  alice = await addCustomer(service);
  bob = await addCustomer(service);
  for (const days of [30, 3, 2]) {
    const { id, DocNumber } = await submitted(alice, { eventDate: daysFromToday(days) });
    aliceIds.push(id);
    aliceDocNumbers.push(DocNumber);
  }
  bobId = (await submitted(bob)).id;
});

afterAll(() => stopAndClean(service));

describe('GET /estimate', () => {
  it("lists a customer's own estimates only, newest first, with total_count", async () => {
    const res = await request(service.url, '/estimate', { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('total_count')).toBe('3');
    expect(res.body.result.map((e: { id: string }) => e.id)).toEqual([...aliceIds].reverse());
    for (const e of res.body.result)
      expect(e).toMatchObject({ UserId: alice.id, status: 'Pending', subtotal: 25 });
  });

  it('pages with limit and offset and orders as asked', async () => {
    const page = await request(service.url, '/estimate?order=createdAt:ASC&limit=2&offset=1', {
      token: alice.token,
    });
    expect(page.headers.get('total_count')).toBe('3');
    expect(page.body.result.map((e: { id: string }) => e.id)).toEqual(aliceIds.slice(1, 3));
  });

  it('finds by DocNumber prefix (the search box)', async () => {
    const doc = aliceDocNumbers[1] as string;
    const exact = await request(service.url, `/estimate?like=DocNumber:${doc}`, { token: alice.token });
    expect(exact.body.result.map((e: { DocNumber: string }) => e.DocNumber)).toEqual([doc]);
    const prefix = await request(service.url, '/estimate?like=DocNumber:10', { token: alice.token });
    expect(prefix.headers.get('total_count')).toBe('3');
    const none = await request(service.url, '/estimate?like=DocNumber:9', { token: alice.token });
    expect(none.headers.get('total_count')).toBe('0');
  });

  it('filters by status, in any case, and by hasBeenModified', async () => {
    await service.ctx.estimates.updateOne({ _id: aliceIds[0] }, { $set: { status: 'Open' } });
    await service.ctx.estimates.updateOne({ _id: aliceIds[1] }, { $set: { hasBeenModified: true } });
    try {
      const open = await request(service.url, '/estimate?status=open', { token: alice.token });
      expect(open.body.result.map((e: { id: string }) => e.id)).toEqual([aliceIds[0]]);
      const pending = await request(service.url, '/estimate?status=Pending', { token: alice.token });
      expect(pending.headers.get('total_count')).toBe('2');
      const modified = await request(service.url, '/estimate?hasBeenModified=true', { token: alice.token });
      expect(modified.body.result.map((e: { id: string }) => e.id)).toEqual([aliceIds[1]]);
      expect(modified.body.result[0].hasBeenModified).toBe(true);
    } finally {
      await service.ctx.estimates.updateOne({ _id: aliceIds[0] }, { $set: { status: 'Pending' } });
      await service.ctx.estimates.updateOne({ _id: aliceIds[1] }, { $set: { hasBeenModified: false } });
    }
  });

  it("shows a customer nothing when asking for someone else's (UserId)", async () => {
    const res = await request(service.url, `/estimate?UserId=${bob.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([]);
    expect(res.headers.get('total_count')).toBe('0');
  });

  it("lists everyone's estimates for staff, optionally one customer's", async () => {
    const total = await service.ctx.estimates.countDocuments();
    for (const token of [staff.admin, staff.superadmin]) {
      const all = await request(service.url, '/estimate?limit=100', { token });
      expect(all.headers.get('total_count')).toBe(String(total));
      expect(all.body.result.map((e: { id: string }) => e.id)).toEqual(
        expect.arrayContaining([...aliceIds, bobId]),
      );
      const bobs = await request(service.url, `/estimate?UserId=${bob.id}`, { token });
      expect(bobs.body.result.map((e: { id: string }) => e.id)).toEqual([bobId]);
    }
  });

  it.each([
    ['status=lost', 'status must be one of: Pending, Open, Closed, Completed, Voided'],
    ['like=groupName:Smith', "like must be '<field>:<prefix>' with field one of: DocNumber"],
    [
      'order=total:DESC',
      "order must be '<field>:ASC' or '<field>:DESC' with field one of: createdAt, updatedAt, eventDate, status",
    ],
    ['limit=101', 'limit must be at most 100'],
    ['color=red', "Unknown query parameter 'color'"],
  ])('answers 400 for %s', async (query, message) => {
    const res = await request(service.url, `/estimate?${query}`, { token: alice.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('refuses anonymous visitors', async () => {
    const res = await request(service.url, '/estimate');
    expect(res.status).toBe(401);
  });
});

describe('GET /estimate/{id}', () => {
  it('shows the owner the whole estimate view', async () => {
    const res = await request(service.url, `/estimate/${aliceIds[0]}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(
      [
        'id',
        'DocNumber',
        'UserId',
        'CartId',
        'status',
        'hasBeenModified',
        'hasInvoice',
        'isInQbo',
        'qboId',
        'syncToken',
        'customerName',
        'groupName',
        'eventDate',
        'location',
        'operationsManager',
        'eventStartTime',
        'eventEndTime',
        'room',
        'loadInTime',
        'setByTime',
        'strikeTime',
        'commentsOnSetup',
        'commentsOnEvent',
        'willCallCustomerName',
        'willCallPickupDate',
        'willCallPickupTime',
        'willCallReturnDate',
        'willCallReturnTime',
        'subtotal',
        'truckingFee',
        'salesTax',
        'total',
        'createdAt',
        'CartProducts',
        'User',
        'actions',
      ].sort(),
    );
    expect(res.body.result).toMatchObject({
      id: aliceIds[0],
      DocNumber: aliceDocNumbers[0],
      UserId: alice.id,
      customerName: alice.company,
      // $25 + $350 trucking; tax round(37500 × 0.081) = 3038 cents
      subtotal: 25,
      truckingFee: 350,
      salesTax: 30.38,
      total: 405.38,
      CartProducts: [expect.objectContaining({ id: 'SEA-CH-001', qty: 2, price: 12.5, total: 25 })],
      User: { displayName: alice.displayName, ownCompany: alice.company, email: alice.email, qboId: null },
    });
    expect(new Date(res.body.result.createdAt).toISOString()).toBe(res.body.result.createdAt);
  });

  it("answers 404 'Estimate not found' for another customer's estimate and for an unknown id", async () => {
    const theirs = await request(service.url, `/estimate/${bobId}`, { token: alice.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Estimate not found');
    const unknown = await request(service.url, `/estimate/${newId()}`, { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Estimate not found');
  });

  it('answers 400 for a malformed id and 401 without a session', async () => {
    const malformed = await request(service.url, '/estimate/not-an-id', { token: alice.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Invalid id');
    const anonymous = await request(service.url, `/estimate/${bobId}`);
    expect(anonymous.status).toBe(401);
  });

  it("lets staff read anyone's estimate", async () => {
    for (const token of [staff.admin, staff.superadmin]) {
      const res = await request(service.url, `/estimate/${bobId}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ id: bobId, UserId: bob.id });
    }
  });

  it('says can-be-modified: true while not terminal and 3 or more days before the event, else false', async () => {
    const header = async (id: string) =>
      (await request(service.url, `/estimate/${id}`, { token: alice.token })).headers.get('can-be-modified');
    expect(await header(aliceIds[0] as string)).toBe('true'); // 30 days
    expect(await header(aliceIds[1] as string)).toBe('true'); // 3 days
    expect(await header(aliceIds[2] as string)).toBe('false'); // 2 days
    await service.ctx.estimates.updateOne({ _id: aliceIds[0] }, { $set: { status: 'Open' } });
    expect(await header(aliceIds[0] as string)).toBe('true');
    await service.ctx.estimates.updateOne({ _id: aliceIds[0] }, { $set: { status: 'Voided' } });
    expect(await header(aliceIds[0] as string)).toBe('false');
    await service.ctx.estimates.updateOne({ _id: aliceIds[0] }, { $set: { status: 'Pending' } });
  });
});
