/**
 * Issue 15: nothing lost or doubled on a crash. A second order instance, a real OS process on the
 * same database and topics, takes a burst of submissions for one product and is killed with SIGKILL
 * in the middle of it. Afterwards (the surviving instance's sweeper settles what the dead one left
 * unconfirmed) the ledger equals the bookings recomputed from the stored orders: every stored order
 * holds its units, nothing else holds any, and no more than the shop owns is booked.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, serviceEnv } from '@decor/kit/testing';
import { spawnService } from '@decor/stack';
import {
  catalogueProduct,
  customerWithCart,
  estimateBody,
  line,
  newId,
  type Order,
  startOrder,
  stopAndClean,
  submit,
} from './support';

jest.setTimeout(120_000);

const SETTLE_MS = '1500';
let survivor: Order;
beforeAll(async () => {
  survivor = await startOrder({ HOLD_RECONCILE_AFTER_MS: SETTLE_MS });
});
afterAll(() => stopAndClean(survivor));

it('kill -9 in the middle of a burst leaves bookings equal to the stored orders', async () => {
  const sku = `CRASH-${newId().slice(0, 8)}`;
  const owned = 25;
  await catalogueProduct(survivor, sku, 800, owned);
  const carts = await Promise.all(
    Array.from({ length: 40 }, () => customerWithCart(survivor, [line(sku, 1, 800)])),
  );

  const doomed = await spawnService(
    'order (doomed)',
    'services/order/src/main.ts',
    await serviceEnv('order', { HOLD_RECONCILE_AFTER_MS: SETTLE_MS }),
  );
  await doomed.ready(60_000);
  const burst = carts.map(({ customer, cart }, i) =>
    sleep(i * 15).then(() =>
      submit(
        { url: doomed.url } as Order,
        customer.token,
        estimateBody(cart.id, { eventDate: '2031-10-04' }),
      ).catch(() => ({ status: 0 })),
    ),
  );
  // Mid-burst: once a few holds are written, some orders are stored and others are not yet.
  await eventually(
    async () => ((await survivor.ctx.ledgers.findById(sku).lean())?.holds.length ?? 0) >= 3 || undefined,
    30_000,
    'the first holds of the burst',
  );
  await doomed.kill9();
  const answers = await Promise.all(burst);
  const accepted = answers.filter((a) => a.status === 201).length;

  // What the stored orders ask, against what the ledger holds, once nothing is left unconfirmed.
  const settled = await eventually(
    async () => {
      const ledger = await survivor.ctx.ledgers.findById(sku).lean();
      return ledger && !ledger.holds.some((h) => h.unconfirmed) ? ledger : undefined;
    },
    30_000,
    'the sweeper to settle the dead instance’s holds',
  );
  const stored = await survivor.ctx.estimates.find({ 'lines.productId': sku }, { lines: 1 }).lean();
  const fromOrders = Object.fromEntries(
    stored.map((e) => [e._id.toString(), e.lines.find((l) => l.productId === sku)?.qty]),
  );
  const fromLedger = Object.fromEntries(settled.holds.map((h) => [h.orderId, h.qty]));
  expect(fromLedger).toEqual(fromOrders);
  expect(stored.length).toBeGreaterThanOrEqual(accepted);
  expect(stored.length).toBeLessThanOrEqual(owned);
  expect(settled.holds.every((h) => !h.overbooked)).toBe(true);
});
