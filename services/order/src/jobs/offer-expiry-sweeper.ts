import type { OrderContext } from '../context';
import { expireOffer, lapsingOffers } from '../store/offer-expiry';

/**
 * The sweeper of offers that ended unaccepted (issue 30): each Open estimate whose offer's end has
 * passed is marked lapsed once, with EstimateOfferExpired (the customer's e-mail), and its holds are
 * released. Every instance sweeps: each estimate's write is guarded by its revision and by the
 * offer not being lapsed yet, so of two sweeps at once one writes and the other finds it done.
 */
export async function sweepExpiredOffers(ctx: OrderContext, now = new Date()): Promise<number> {
  let expired = 0;
  for (const id of await lapsingOffers(ctx, now)) {
    try {
      if (await expireOffer(ctx, id, now)) expired += 1;
    } catch (err) {
      // One estimate that cannot be written now (a ledger too busy, say) does not hold up the others.
      ctx.log.warn({ err, estimateId: id }, 'offer expiry: not released yet, the next sweep retries');
    }
  }
  return expired;
}

/** Sweeps every OFFER_EXPIRY_SWEEP_MS until stopped; a failed sweep is logged and the next one tries again. */
export function startOfferExpirySweeper(ctx: OrderContext): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpiredOffers(ctx)
      .then((expired) => {
        if (expired > 0) ctx.log.info({ expired }, 'offers ended unaccepted: holds released');
      })
      .catch((err) => ctx.log.warn({ err }, 'offer expiry sweep failed; the next one retries'))
      .finally(() => {
        running = false;
      });
  }, ctx.config.OFFER_EXPIRY_SWEEP_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
