/**
 * Issue 30: an estimate not accepted by its offer's end stops being acceptable and releases its
 * holds (the sweep, once, even with two sweeps racing; the hold sweeper never brings them back);
 * staff extend it (its holds taken again, or 409 when the units are gone); the orders list's
 * acceptance filter. Real Kafka, Mongo and the shared payments emulator.
 */
import { randomBytes } from 'node:crypto';
import { ACCEPTANCE_MESSAGES } from '@decor/contracts';
import type { Hold } from '../src/domain/bookings';
import { sweepHolds } from '../src/jobs/hold-sweeper';
import { sweepExpiredOffers } from '../src/jobs/offer-expiry-sweeper';
import type { Estimate } from '../src/store/estimate-model';
import {
  acceptAsReviewed,
  addCustomer,
  catalogueProduct,
  customerWithCart,
  endOffer as endOfferOf,
  estimateBody,
  eventsOf,
  line,
  type Order,
  orderCall,
  paymentsSettings,
  qboSynced,
  startOrder,
  stopAndClean,
  submit,
  submitted,
  type TestCustomer,
  tokenFor,
} from './support';

let service: Order;
let staff: string;

beforeAll(async () => {
  service = await startOrder({
    ...paymentsSettings('offer_expiry'),
    // The sweeps are run by hand below.
    OFFER_EXPIRY_SWEEP_MS: '3600000',
    HOLD_RECONCILE_AFTER_MS: '3600000',
  });
  staff = tokenFor(service, 'admin');
}, 120_000);
afterAll(() => stopAndClean(service));

const acceptancePath = (id: string) => `/estimate/${id}/acceptance`;
const extend = (token: string, id: string, body: unknown) =>
  orderCall(service, 'POST', `${acceptancePath(id)}/extend`, token, body);
const stored = (id: string) => service.ctx.estimates.findById(id).lean<Estimate>();
const holdsOf = async (sku: string, orderId: string): Promise<Hold[]> =>
  ((await service.ctx.ledgers.findById(sku).lean())?.holds ?? []).filter((h) => h.orderId === orderId);

/** A product the shop owns `quantity` of, and a customer's Open estimate booking all of them. */
async function openEstimateOfAll(quantity: number) {
  const sku = `EXP-${randomBytes(3).toString('hex')}`;
  await catalogueProduct(service, sku, 5000, quantity);
  const { customer, id } = await estimateFor(sku, quantity);
  await qboSynced(service, 'estimate', id, 'created');
  return { sku, customer, id };
}

/** A new customer's estimate (Pending) of `qty` of `sku`, or the refusal. */
async function estimateFor(sku: string, qty: number) {
  const { customer, cart } = await customerWithCart(service, [line(sku, qty, 5000)]);
  const res = await submit(service, customer.token, estimateBody(cart.id));
  return { customer, id: res.body.result?.id as string, res };
}

const endOffer = (id: string) => endOfferOf(service, id);

const eventsNamed = async (id: string, type: string) =>
  (await eventsOf(service, id)).filter((e) => e.type === type);

describe('an offer that ends unaccepted', () => {
  it('is swept once (two sweeps racing): marked expired with one EstimateOfferExpired, its holds released for others', async () => {
    const { sku, customer, id } = await openEstimateOfAll(3);
    expect(await holdsOf(sku, id)).toHaveLength(1);
    expect((await estimateFor(sku, 3)).res.status).toBe(409); // held: nobody else gets the units

    await endOffer(id);
    // Expired by the clock at once, before any sweep.
    const before = await orderCall(service, 'GET', acceptancePath(id), customer.token);
    expect(before.body.result.state).toBe('expired');

    const [a, b] = await Promise.all([sweepExpiredOffers(service.ctx), sweepExpiredOffers(service.ctx)]);
    expect(a + b).toBe(1);
    expect(await sweepExpiredOffers(service.ctx)).toBe(0);
    const doc = await stored(id);
    expect(doc?.offer?.lapsed).toMatchObject({ editedRevision: doc?.editedRevision ?? 0 });
    expect(await holdsOf(sku, id)).toEqual([]);

    const expired = await eventsNamed(id, 'EstimateOfferExpired');
    expect(expired).toHaveLength(1);
    expect(expired[0]?.payload).toMatchObject({
      order: { id, status: 'Open', revision: doc?.revision },
      expiresAt: new Date(doc?.offer?.expiresAt as Date).toISOString(),
    });

    // Another customer now books the units.
    const other = await estimateFor(sku, 3);
    expect(other.res.status).toBe(201);
    // And the customer can no longer accept.
    const post = await acceptAsReviewed(service, customer, id);
    expect(post.status).toBe(409);
    expect(post.body.message).toBe(ACCEPTANCE_MESSAGES.expired);
  });

  it('a crash between the release and the write: the hold sweeper settles the hold to the lapsed estimate (released)', async () => {
    const { sku, id } = await openEstimateOfAll(2);
    const [hold] = await holdsOf(sku, id);
    await endOffer(id);
    expect(await sweepExpiredOffers(service.ctx)).toBe(1);
    // What a process that died after marking the hold unconfirmed and writing the lapse leaves.
    await service.ctx.ledgers.updateOne(
      { _id: sku },
      { $push: { holds: { ...hold, unconfirmed: true, heldAt: new Date(Date.now() - 7_200_000) } } },
    );
    expect(await holdsOf(sku, id)).toHaveLength(1);
    await sweepHolds(service.ctx);
    expect(await holdsOf(sku, id)).toEqual([]);
  });
});

describe('staff extend an offer', () => {
  it('an expired one awaits acceptance again, its holds taken again, and the customer accepts', async () => {
    const { sku, customer, id } = await openEstimateOfAll(2);
    await endOffer(id);
    await sweepExpiredOffers(service.ctx);
    expect(await holdsOf(sku, id)).toEqual([]);

    const byCustomer = await extend(customer.token, id, { days: 7 });
    expect(byCustomer.status).toBe(403);
    for (const bad of [{ days: 0 }, { days: 91 }, { days: 2.5 }, {}, { days: 7, expiresAt: '2031-01-01' }]) {
      const res = await extend(staff, id, bad);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect((await extend(staff, id, { days: 0 })).body.message).toBe(
      'days must be a whole number of days from 1 to 90',
    );

    const before = Date.now();
    const res = await extend(staff, id, { days: 7 });
    expect(res.status).toBe(200);
    expect(res.body.result.state).toBe('awaiting');
    const days = (Date.parse(res.body.result.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect(await holdsOf(sku, id)).toEqual([expect.objectContaining({ qty: 2 })]);
    expect((await stored(id))?.offer?.lapsed ?? null).toBeNull();
    const [extended, ...more] = await eventsNamed(id, 'EstimateOfferExtended');
    expect(more).toEqual([]);
    expect(extended?.payload).toMatchObject({
      order: { id },
      actor: { role: 'staff' },
      expiresAt: res.body.result.expiresAt,
      holdsTaken: true,
    });

    const accepted = await acceptAsReviewed(service, customer, id);
    expect(accepted.status).toBe(201);
    expect(accepted.body.result.state).toBe('accepted');
    // Accepted: nothing left to extend.
    const again = await extend(staff, id, { days: 7 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ACCEPTANCE_MESSAGES.alreadyAccepted);
  });

  it('when the units were booked meanwhile: 409 with every short line, nothing changed', async () => {
    const { sku, id } = await openEstimateOfAll(2);
    await endOffer(id);
    await sweepExpiredOffers(service.ctx);
    expect((await estimateFor(sku, 2)).res.status).toBe(201);
    const revision = (await stored(id))?.revision;

    const res = await extend(staff, id, { days: 7 });
    expect(res.status).toBe(409);
    expect(res.body.shortLines).toEqual([
      expect.objectContaining({ productId: sku, requested: 2, available: 0 }),
    ]);
    expect(res.body.message).toEqual(expect.any(String));
    expect(await holdsOf(sku, id)).toEqual([]);
    expect((await stored(id))?.revision).toBe(revision);
    const view = await orderCall(service, 'GET', acceptancePath(id), staff);
    expect(view.body.result.state).toBe('expired');
    expect(await eventsNamed(id, 'EstimateOfferExtended')).toEqual([]);
  });

  it('a Pending estimate is not offered: 409', async () => {
    const { id } = await submitted(service, await addCustomer(service));
    const res = await extend(staff, id, { days: 7 });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(ACCEPTANCE_MESSAGES.notExtendable);
  });
});

describe('the orders list by acceptance', () => {
  let customer: TestCustomer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    customer = await addCustomer(service);
    const open = async () => {
      const { id } = await submitted(service, customer);
      await qboSynced(service, 'estimate', id, 'created');
      return id;
    };
    ids['not-offered'] = (await submitted(service, customer)).id;
    ids.awaiting = await open();
    ids.expired = await open();
    await endOffer(ids.expired);
    ids.accepted = await open();
    expect((await acceptAsReviewed(service, customer, ids.accepted)).status).toBe(201);
    // A signature a change voided, the change approved: the customer may sign again.
    ids.voided = await open();
    await service.ctx.estimates.updateOne({ _id: ids.voided }, { $set: { voidedChanges: ['location'] } });
  }, 60_000);

  const list = (token: string, query: string) =>
    orderCall(service, 'GET', `/estimate?UserId=${customer.id}&${query}`, token);

  it('returns only the estimates in that state, each row carrying its acceptance (state, deposit, expiry)', async () => {
    for (const [state, id] of Object.entries(ids)) {
      const res = await list(staff, `acceptance=${state}`);
      expect([state, res.status]).toEqual([state, 200]);
      expect([state, res.body.result.map((r: { id: string }) => r.id)]).toEqual([state, [id]]);
      expect(res.headers.get('total_count')).toBe('1');
    }
    const rows = (await list(staff, 'limit=100')).body.result as {
      id: string;
      acceptance?: { state: string; depositState: string | null; expiresAt: string | null };
    }[];
    const byId = new Map(rows.map((r) => [r.id, r.acceptance]));
    expect(byId.get(ids['not-offered'] as string)).toBeUndefined();
    expect(byId.get(ids.expired as string)).toEqual({
      state: 'expired',
      depositState: null,
      expiresAt: expect.any(String),
    });
    expect(byId.get(ids.accepted as string)).toMatchObject({ state: 'accepted', depositState: 'authorised' });
    // The customer filters their own list the same way.
    const own = await list(customer.token, 'acceptance=expired');
    expect(own.body.result.map((r: { id: string }) => r.id)).toEqual([ids.expired]);
  });

  it('refuses any other value (400 with a message), and on invoices', async () => {
    const res = await list(staff, 'acceptance=pending');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'acceptance must be one of: not-offered, awaiting, accepted, expired, voided',
    );
    const invoices = await orderCall(service, 'GET', '/invoice?acceptance=expired', staff);
    expect(invoices.status).toBe(400);
  });
});
