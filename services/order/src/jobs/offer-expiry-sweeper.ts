import type { OrderContext } from '../context';
import {
  expireOffer,
  lapsedAuthorisedDeposits,
  lapsingOffers,
  releaseLapsedDeposit,
} from '../store/offer-expiry';

/**
 * The sweeper of offers that ended unaccepted (issue 30): each Open estimate whose offer's end has
 * passed is marked lapsed once, with EstimateOfferExpired (the customer's e-mail), and its holds are
 * released; then a deposit a lapsed offer still has authorised is released at the provider. Every
 * instance sweeps: each estimate's write is guarded by its revision and by the offer not being
 * lapsed yet (the deposit's, by its state), so of two sweeps at once one writes and the other finds
 * it done. The deposits' step lists every lapsed offer still holding one, so a release that failed
 * or a process that died after the lapse's write is caught up by the next sweep.
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
  await releaseLapsedDeposits(ctx, now);
  return expired;
}

/** Step two of the sweep: lapsed offers' deposits still authorised are released; how many were. */
export async function releaseLapsedDeposits(ctx: OrderContext, now = new Date()): Promise<number> {
  let released = 0;
  for (const id of await lapsedAuthorisedDeposits(ctx, now)) {
    try {
      if (await releaseLapsedDeposit(ctx, id)) released += 1;
    } catch (err) {
      // The provider down, say: the deposit stays authorised and the next sweep asks again.
      ctx.log.warn({ err, estimateId: id }, 'offer expiry: deposit not released yet, the next sweep retries');
    }
  }
  if (released > 0) ctx.log.info({ released }, 'lapsed offers: authorised deposits released');
  return released;
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
