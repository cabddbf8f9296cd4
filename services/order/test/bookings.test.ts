import { randomBytes } from 'node:crypto';
import { connectMongo } from '@decor/kit';
import { testEndpoints } from '@decor/kit/testing';
import type { Connection } from 'mongoose';
import { confirmHold, type LineRequest, rebook, requestsOf } from '../src/domain/bookings';
import { type BookingStore, bookOrder, ledgerBatches, releaseOrder } from '../src/store/bookings';
import { ledgerModel } from '../src/store/ledger-model';

/** Two "instances": each its own connection and its own in-process lock, one database. */
const dbName = `t${randomBytes(6).toString('hex')}_order_bookings`;
const owned: Record<string, number> = { CHAIR: 10, TABLE: 4, LINEN: 50 };
const connections: Connection[] = [];
let instances: BookingStore[];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) connections.push(await connectMongo(testEndpoints().mongoUrl, dbName));
  instances = connections.map((c) => {
    const ledgers = ledgerModel(c);
    const log = { error: (fields: object, message: string) => console.error(message, fields) };
    return { ledgers, owned: async (sku: string) => owned[sku] ?? 0, batches: ledgerBatches(ledgers), log };
  });
  await instances[0]?.ledgers.init();
});
afterAll(async () => {
  await connections[0]?.dropDatabase();
  await Promise.all(connections.map((c) => c.close()));
});

const saturday = { first: '2027-01-09', last: '2027-01-09' };
const line = (sku: string, qty: number, window = saturday): LineRequest => ({ sku, name: sku, qty, window });
const now = new Date('2027-01-01T12:00:00Z');

async function heldUnits(sku: string): Promise<Record<string, number>> {
  const ledger = await instances[0]?.ledgers.findById(sku).lean();
  return Object.fromEntries((ledger?.holds ?? []).map((h) => [h.orderId, h.qty]));
}

describe('bookings (pure)', () => {
  it('an order’s own earlier hold never competes with its new one; others do', () => {
    const held = { orderId: 'a', qty: 8, ...saturday, unconfirmed: false, heldAt: now, overbooked: false };
    expect(rebook([held], 10, 'a', line('CHAIR', 10), { now })).toMatchObject({
      holds: [{ orderId: 'a', qty: 10 }],
    });
    expect(rebook([held], 10, 'b', line('CHAIR', 3), { now })).toEqual({
      short: { productId: 'CHAIR', name: 'CHAIR', requested: 3, available: 2, day: '2027-01-09' },
    });
    // Staff's sub-rental: booked anyway, and the line that was short is handed back to be recorded.
    expect(rebook([held], 10, 'b', line('CHAIR', 3), { now, overbook: true })).toMatchObject({
      holds: [{ orderId: 'a' }, { orderId: 'b', qty: 3, overbooked: true }],
      overbooked: { productId: 'CHAIR', requested: 3, available: 2, day: '2027-01-09' },
    });
    expect(rebook([held], 10, 'b', line('CHAIR', 2), { now, overbook: true })).not.toHaveProperty(
      'overbooked',
    );
  });

  it('the sweeper confirms a hold as booked: orders booked since never make it a sub-rental', () => {
    // 'a' booked 6 of 10 within stock; staff then raised 'b' to 6 as a sub-rental; the sweep of 'a' comes after.
    const a = { orderId: 'a', qty: 6, ...saturday, unconfirmed: true, heldAt: now, overbooked: false };
    const b = { orderId: 'b', qty: 6, ...saturday, unconfirmed: false, heldAt: now, overbooked: true };
    expect(confirmHold([a, b], 10, 'a', line('CHAIR', 6), now)).toEqual([{ ...a, unconfirmed: false }, b]);
    // A hold that is not what the stored order asks is set to it, beyond the free units if need be.
    expect(confirmHold([a, b], 10, 'a', line('CHAIR', 5), now)).toEqual([
      b,
      expect.objectContaining({ orderId: 'a', qty: 5, unconfirmed: false, overbooked: true }),
    ]);
  });

  it('one request per product, in SKU order, quantities of a repeated product summed', () => {
    const requests = requestsOf(
      [
        { sku: 'TABLE', name: 'Table', qty: 1 },
        { sku: 'CHAIR', name: 'Chair', qty: 2 },
        { sku: 'TABLE', name: 'Table', qty: 3 },
      ],
      () => saturday,
    );
    expect(requests.map((r) => [r.sku, r.qty])).toEqual([
      ['CHAIR', 2],
      ['TABLE', 4],
    ]);
  });
});

describe('bookings on the real store', () => {
  it('200 orders racing for 10 chairs on two instances: exactly 10 booked, every other refused', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        bookOrder(instances[i % 2] as BookingStore, `race-${i}`, [line('CHAIR', 1)], { now }),
      ),
    );
    const booked = outcomes.filter((o) => 'booked' in o).length;
    expect(booked).toBe(10);
    expect(outcomes.filter((o) => 'short' in o)).toHaveLength(190);
    const held = await heldUnits('CHAIR');
    expect(Object.values(held).reduce((a, b) => a + b, 0)).toBe(10);
    await Promise.all(Object.keys(held).map((id) => releaseOrder(instances[0] as BookingStore, id)));
    expect(await heldUnits('CHAIR')).toEqual({});
  });

  it('all or nothing: a short line undoes the lines booked before it and reports every short line', async () => {
    const store = instances[0] as BookingStore;
    expect(await bookOrder(store, 'first', [line('TABLE', 3)], { now })).toEqual({
      booked: true,
      overbooked: [],
    });
    const outcome = await bookOrder(
      store,
      'second',
      [line('CHAIR', 5), line('LINEN', 60), line('TABLE', 2)],
      {
        now,
      },
    );
    expect(outcome).toEqual({
      short: [
        { productId: 'LINEN', name: 'LINEN', requested: 60, available: 50, day: '2027-01-09' },
        { productId: 'TABLE', name: 'TABLE', requested: 2, available: 1, day: '2027-01-09' },
      ],
    });
    expect(await heldUnits('CHAIR')).toEqual({});
    expect(await heldUnits('TABLE')).toEqual({ first: 3 });
  });

  it('re-booking an order replaces its holds, keeps them when refused, and releases dropped products', async () => {
    const store = instances[1] as BookingStore;
    expect(await bookOrder(store, 'edit', [line('CHAIR', 4), line('LINEN', 10)], { now })).toEqual({
      booked: true,
      overbooked: [],
    });
    // Asking for more than is free leaves the earlier booking exactly as it was.
    expect(await bookOrder(store, 'edit', [line('CHAIR', 11)], { now })).toMatchObject({
      short: [{ available: 10 }],
    });
    expect(await heldUnits('CHAIR')).toEqual({ edit: 4 });
    expect(await heldUnits('LINEN')).toEqual({ edit: 10 });
    expect(await bookOrder(store, 'edit', [line('CHAIR', 10)], { now })).toEqual({
      booked: true,
      overbooked: [],
    });
    expect(await heldUnits('CHAIR')).toEqual({ edit: 10 });
    expect(await heldUnits('LINEN')).toEqual({});
    // Another day is free again: windows that do not share a day never compete.
    const sunday = { first: '2027-01-10', last: '2027-01-10' };
    expect(await bookOrder(store, 'other-day', [line('CHAIR', 10, sunday)], { now })).toEqual({
      booked: true,
      overbooked: [],
    });
  });
});
