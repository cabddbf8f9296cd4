/**
 * Issue 30: a customer requests the invoice of an estimate whose acceptance offer lapsed (the expiry
 * sweep released its units). The invoice books them again against what is free now: when the units
 * went to someone else, the availability 409 with every short line and nothing changed; when they are
 * still free, the invoice is made as ever, holding them (not overbooked). Real Kafka and Mongo.
 */
import { randomBytes } from 'node:crypto';
import type { CartLineState } from '@decor/contracts';
import type { Static } from '@sinclair/typebox';
import type { Hold } from '../src/domain/bookings';
import { sweepHolds } from '../src/jobs/hold-sweeper';
import type { Estimate } from '../src/store/estimate-model';
import {
  catalogueProduct,
  customerWithCart,
  estimateBody,
  eventsOf,
  line,
  type Order,
  offerLapsed,
  orderCall,
  paymentsSettings,
  qboSynced,
  startOrder,
  stopAndClean,
  submit,
} from './support';

type CartLine = Static<typeof CartLineState>;

let service: Order;

beforeAll(async () => {
  service = await startOrder({
    ...paymentsSettings('lapsed_invoice'),
    // The sweeps are run by hand below.
    OFFER_EXPIRY_SWEEP_MS: '3600000',
    HOLD_RECONCILE_AFTER_MS: '3600000',
  });
}, 120_000);
afterAll(() => stopAndClean(service));

const stored = (id: string) => service.ctx.estimates.findById(id).lean<Estimate>();
const holdsOf = async (sku: string, orderId: string): Promise<Hold[]> =>
  ((await service.ctx.ledgers.findById(sku).lean())?.holds ?? []).filter((h) => h.orderId === orderId);

/** Products the shop owns `quantity` of each (their SKUs). */
async function products(...quantities: number[]): Promise<string[]> {
  const skus = quantities.map(() => `LAPSE-${randomBytes(3).toString('hex')}`);
  await Promise.all(skus.map((sku, i) => catalogueProduct(service, sku, 5000, quantities[i] as number)));
  return skus;
}

/** A new customer's estimate of these lines, or the refusal. */
async function estimateOf(lines: CartLine[]) {
  const { customer, cart } = await customerWithCart(service, lines);
  const res = await submit(service, customer.token, estimateBody(cart.id));
  return { customer, id: res.body.result?.id as string, res };
}

/** A customer's Open estimate of these lines whose offer then lapsed: its holds released. */
async function lapsedEstimate(lines: CartLine[]) {
  const estimate = await estimateOf(lines);
  expect(estimate.res.status).toBe(201);
  await qboSynced(service, 'estimate', estimate.id, 'created');
  await offerLapsed(service, estimate.id);
  expect((await stored(estimate.id))?.offer?.lapsed).toBeTruthy();
  for (const l of lines) expect(await holdsOf(l.productId, estimate.id)).toEqual([]);
  return estimate;
}

const requestInvoice = (token: string, estimateId: string) =>
  orderCall(service, 'POST', '/invoice', token, { EstimateId: estimateId });

describe('an invoice requested from an estimate whose offer lapsed', () => {
  it('the units went to someone else: 409 with every short line, nothing changed', async () => {
    const [tables, chairs, lamps] = (await products(2, 1, 5)) as [string, string, string];
    const { customer, id } = await lapsedEstimate([
      line(tables, 2, 5000),
      line(chairs, 1, 5000),
      line(lamps, 1, 5000),
    ]);
    // Another customer books every table and chair meanwhile (the lamps stay free).
    expect((await estimateOf([line(tables, 2, 5000), line(chairs, 1, 5000)])).res.status).toBe(201);
    const before = await stored(id);

    const res = await requestInvoice(customer.token, id);
    expect(res.status).toBe(409);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.shortLines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productId: tables, requested: 2, available: 0 }),
        expect.objectContaining({ productId: chairs, requested: 1, available: 0 }),
      ]),
    );
    expect(res.body.shortLines).toHaveLength(2);

    // Nothing changed: no invoice, the estimate as it was, no unit held (not even the free lamp).
    expect(await service.ctx.invoices.exists({ estimateId: id })).toBeNull();
    const after = await stored(id);
    expect(after?.status).toBe('Open');
    expect(after?.hasInvoice).toBe(false);
    expect(after?.revision).toBe(before?.revision);
    for (const sku of [tables, chairs, lamps]) expect(await holdsOf(sku, id)).toEqual([]);
    expect((await eventsOf(service, id)).map((e) => e.type)).not.toContain('InvoiceCreated');
  });

  it('the units are still free: the invoice is made and holds them (not overbooked), as ever', async () => {
    const [tables] = (await products(3)) as [string];
    const { customer, id } = await lapsedEstimate([line(tables, 2, 5000)]);

    const res = await requestInvoice(customer.token, id);
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ status: 'Pending', EstimateId: id });
    const holds = await holdsOf(tables, id);
    expect(holds).toEqual([expect.objectContaining({ qty: 2, overbooked: false })]);
    // They are the invoice's now: one table left for others, the hold sweeper keeps them.
    expect((await estimateOf([line(tables, 2, 5000)])).res.status).toBe(409);
    await sweepHolds(service.ctx, new Date(Date.now() + 7_200_000));
    expect(await holdsOf(tables, id)).toEqual([
      expect.objectContaining({ qty: 2, overbooked: false, unconfirmed: false }),
    ]);
    expect((await stored(id))?.status).toBe('Closed');
  });
});
