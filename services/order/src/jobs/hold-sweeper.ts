import { addDays } from '@decor/contracts';
import type { OrderContext } from '../context';
import type { BookableOrder } from '../domain/bookings';
import { dropPastHolds, settleHold, staleUnconfirmedHolds } from '../store/bookings';
import { bookingStore, requestsFor } from '../store/order-bookings';

/**
 * The sweeper of bookings: a hold stays unconfirmed from the moment it is written until this sweep
 * sees its order. An order written since: the hold is set to what the order asks and confirmed; an
 * order that was never written (a crash or a refusal between the booking and the order's write):
 * the hold is released. Every instance sweeps; the writes are version-guarded and idempotent (each
 * sets the hold to the stored order's truth), so two sweeps at once agree.
 */
export async function sweepHolds(ctx: OrderContext, now = new Date()): Promise<number> {
  const store = bookingStore(ctx);
  const cutoff = new Date(now.getTime() - ctx.config.HOLD_RECONCILE_AFTER_MS);
  const stale = await staleUnconfirmedHolds(store, cutoff);
  for (const { sku, orderId } of stale) {
    const order = await storedOrder(ctx, orderId);
    const requests = order ? await requestsFor(ctx, order) : [];
    await settleHold(
      store,
      sku,
      orderId,
      requests.find((r) => r.sku === sku),
      now,
    );
  }
  // Completed orders release after their window: any hold whose window ended before yesterday goes.
  await dropPastHolds(store, addDays(ctx.today(), -1));
  return stale.length;
}

/** The booking's order as stored: its invoice once there is one, else the estimate. */
async function storedOrder(ctx: OrderContext, bookingId: string): Promise<BookableOrder | null> {
  const projection = { status: 1, details: 1, lines: 1, estimateId: 1 } as const;
  const invoice = await ctx.invoices.findOne({ estimateId: bookingId }, projection).lean();
  if (invoice) return { ...invoice, orderType: 'invoice', id: invoice._id.toString(), estimateId: bookingId };
  if (!/^[a-f0-9]{24}$/.test(bookingId)) return null;
  // An estimate whose offer lapsed (issue 30) holds nothing: its released holds stay released.
  const estimate = await ctx.estimates
    .findById(bookingId, { ...projection, editedRevision: 1, 'offer.lapsed': 1 })
    .lean();
  if (!estimate) return null;
  const { offer, ...rest } = estimate;
  return {
    ...rest,
    orderType: 'estimate',
    id: bookingId,
    estimateId: null,
    offerLapsedAtEdit: offer?.lapsed?.editedRevision ?? null,
  };
}

/** Sweeps every half reconcile age until stopped; a failed sweep is logged and the next one tries again. */
export function startHoldSweeper(ctx: OrderContext): { stop(): void } {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      sweepHolds(ctx)
        .catch((err) => ctx.log.warn({ err }, 'hold sweep failed; the next one retries'))
        .finally(() => {
          running = false;
        });
    },
    Math.max(ctx.config.HOLD_RECONCILE_AFTER_MS / 2, 500),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
