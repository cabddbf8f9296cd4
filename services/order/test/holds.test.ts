/**
 * Issue 15: the order is the truth of its booking. Holds written before their order (a crash, a
 * refused write) are settled by the sweeper: confirmed to what the stored order asks, or released
 * when no order was ever stored; holds that ended are dropped; a product's and its category's
 * turnaround buffers, learnt from catalogue events, widen the window.
 */
import { CategoryUpserted, ProductUpserted } from '@decor/contracts';
import { eventually } from '@decor/kit/testing';
import { sweepHolds } from '../src/jobs/hold-sweeper';
import { bookOrder, ledgerBatches } from '../src/store/bookings';
import {
  catalogueProduct,
  customerWithCart,
  estimateBody,
  line,
  newId,
  type Order,
  publish,
  startOrder,
  stopAndClean,
  submit,
} from './support';

let service: Order;
beforeAll(async () => {
  service = await startOrder({ HOLD_RECONCILE_AFTER_MS: '60000' });
});
afterAll(() => stopAndClean(service));

const ledger = (sku: string) => service.ctx.ledgers.findById(sku).lean();
const store = () => ({
  ledgers: service.ctx.ledgers,
  batches: ledgerBatches(service.ctx.ledgers),
  owned: async () => 100,
  log: service.ctx.log,
});
// The sweep as it runs a while from now (the instance's own sweeper waits a minute for a hold: not in these tests).
const later = () => new Date(Date.now() + 120_000);

it('a submission holds its lines, unconfirmed until the sweeper sees the stored estimate', async () => {
  const sku = `H-${newId()}`;
  await catalogueProduct(service, sku, 500, 10);
  const { customer, cart } = await customerWithCart(service, [line(sku, 4, 500)]);
  const res = await submit(service, customer.token, estimateBody(cart.id, { eventDate: '2031-07-10' }));
  expect(res.status).toBe(201);
  expect((await ledger(sku))?.holds).toEqual([
    expect.objectContaining({
      orderId: res.body.result.id,
      qty: 4,
      first: '2031-07-09',
      last: '2031-07-11',
      unconfirmed: true,
    }),
  ]);
  await sweepHolds(service.ctx, later());
  expect((await ledger(sku))?.holds).toEqual([
    expect.objectContaining({ orderId: res.body.result.id, qty: 4, unconfirmed: false, overbooked: false }),
  ]);
});

it('a hold whose order was never stored is released; one of a stored order is set to what it asks', async () => {
  const sku = `O-${newId()}`;
  await catalogueProduct(service, sku, 500, 10);
  const orphan = newId();
  const window = { first: '2031-08-01', last: '2031-08-03' };
  expect(await bookOrder(store(), orphan, [{ sku, name: sku, qty: 7, window }], { now: new Date() })).toEqual(
    {
      booked: true,
      overbooked: [],
    },
  );
  const { customer, cart } = await customerWithCart(service, [line(sku, 2, 500)]);
  const res = await submit(service, customer.token, estimateBody(cart.id, { eventDate: '2031-08-02' }));
  expect(res.status).toBe(201);
  // A crash left the stored order's hold wrong (as an edit that never got written would).
  const id = res.body.result.id as string;
  expect(await bookOrder(store(), id, [{ sku, name: sku, qty: 1, window }], { now: new Date() })).toEqual({
    booked: true,
    overbooked: [],
  });
  await sweepHolds(service.ctx, later());
  expect((await ledger(sku))?.holds).toEqual([
    expect.objectContaining({ orderId: id, qty: 2, unconfirmed: false }),
  ]);
});

it('drops holds that ended before yesterday', async () => {
  const sku = `P-${newId()}`;
  const past = { first: '2020-01-01', last: '2020-01-03' };
  await bookOrder(store(), newId(), [{ sku, name: sku, qty: 1, window: past }], { now: new Date() });
  const before = (await ledger(sku))?.version ?? 0;
  await sweepHolds(service.ctx, later());
  const after = await ledger(sku);
  expect(after?.holds).toEqual([]);
  expect(after?.version).toBeGreaterThan(before);
});

it('widens the window by the category’s and the product’s own buffers', async () => {
  const sku = `B-${newId()}`;
  await publish(service, CategoryUpserted, 'cat-linens', {
    id: 'cat-linens',
    name: 'Linens',
    turnaround: { after: 3 },
  });
  await publish(service, ProductUpserted, sku, {
    sku,
    name: 'Ivory Linen',
    description: 'Linen',
    priceCents: 100,
    quantity: 50,
    category: 'Linens',
    subcategory: 'Round',
    images: [],
    turnaround: { before: 0 },
  });
  await eventually(
    async () =>
      (await service.ctx.categories.exists({ name: 'Linens' })) &&
      (await service.ctx.products.exists({ _id: sku }))
        ? true
        : undefined,
    15_000,
    'the category and the product',
  );
  const { customer, cart } = await customerWithCart(service, [line(sku, 1, 100)]);
  const res = await submit(service, customer.token, estimateBody(cart.id, { eventDate: '2031-09-10' }));
  expect(res.status).toBe(201);
  expect((await ledger(sku))?.holds).toEqual([
    expect.objectContaining({ first: '2031-09-10', last: '2031-09-13' }),
  ]);
});
