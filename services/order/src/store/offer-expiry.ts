import {
  type AcceptanceState,
  type Actor,
  EstimateOfferExpired,
  EstimateOfferExtended,
  type ShortLine,
} from '@decor/contracts';
import { newEvent, runFlow, stop } from '@decor/kit';
import type { OrderContext } from '../context';
import { extendRefusal, stateOf } from '../domain/acceptance';
import { offerLapsed } from '../domain/bookings';
import { orderState } from '../domain/decide';
import type { OrderRecord } from '../domain/view';
import { withOffer } from './accept';
import { type EstimateWithAcceptance, readEstimateWithAcceptance } from './acceptance';
import { releaseDeposit } from './deposits';
import type { Estimate } from './estimate-model';
import { type BookedChange, bookChange, ShortLinesError } from './order-bookings';
import { CHANGED_MEANWHILE } from './orders';

/**
 * Issue 30: an offer that ends unaccepted, and staff extending one. Both are flows over the
 * estimate's holds and one revision-guarded write of the estimate with its event in the outbox, in
 * the order every booking change uses (store/orders.ts): the holds go unconfirmed (or are booked)
 * first, the estimate is written, then what it no longer holds is released. A process that dies in
 * between leaves unconfirmed holds, which the hold sweeper sets to what the stored estimate asks —
 * and a lapsed offer asks nothing (domain/bookings.ts' offerLapsed), so released holds never come back.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const ATTEMPTS = 5;

/** The write guard of a read estimate (documents from before revisions count as 0). */
const revisionGuard = (order: OrderRecord) => (order.revision === 0 ? { $in: [0, null] } : order.revision);

/** The only estimates that may be offered: Open, their changes approved, not accepted. */
const OFFERED = { status: 'Open', hasBeenModified: false, acceptance: null } as const;

/** Offers that ended before `now` unaccepted and are not marked lapsed yet: the sweep's work list. */
export async function lapsingOffers(ctx: OrderContext, now: Date, limit = 50): Promise<string[]> {
  const docs = await ctx.estimates
    .find({ ...OFFERED, 'offer.expiresAt': { $lte: now }, 'offer.lapsed': null }, { _id: 1 })
    .limit(limit)
    .lean();
  return docs.map((d) => d._id.toString());
}

/**
 * The offer of estimate `id` ended unaccepted: marks it lapsed, once, with EstimateOfferExpired in
 * the same write (the customer's e-mail, the live pages), and releases its holds. False when there
 * was nothing to do or another writer came first (a second sweeper, an extension, an acceptance):
 * the loser releases nothing, and its unconfirmed marks are settled by the hold sweeper.
 */
export async function expireOffer(ctx: OrderContext, id: string, now = new Date()): Promise<boolean> {
  const loaded = await readEstimateWithAcceptance(ctx, id);
  const offer = loaded?.facts.offer;
  if (!loaded || !offer || offer.lapsed || stateOf(loaded.order, loaded.facts, now) !== 'expired')
    return false;
  const { order } = loaded;
  const expiresAt = new Date(offer.expiresAt);
  const event = newEvent(EstimateOfferExpired, {
    aggregateId: id,
    correlationId: `offer-expired-${id}-${expiresAt.getTime()}`,
    payload: {
      order: orderState({ ...order, revision: order.revision + 1 }),
      expiresAt: expiresAt.toISOString(),
    },
  });
  let booked: BookedChange | undefined;
  const lost = await runFlow<OrderContext, 'changed meanwhile'>(
    'let an unaccepted offer lapse',
    ctx,
    [
      {
        // No undo: a write that loses leaves unconfirmed holds the hold sweeper confirms again.
        name: "mark the estimate's holds unconfirmed",
        run: async () => {
          booked = await bookChange(ctx, order, { ...order, offerLapsedAtEdit: order.editedRevision });
        },
      },
      {
        name: 'mark the offer lapsed with EstimateOfferExpired',
        run: async () => {
          const res = await ctx.estimates.updateOne(
            {
              _id: id,
              ...OFFERED,
              revision: revisionGuard(order),
              'offer.expiresAt': expiresAt,
              'offer.lapsed': null,
            },
            {
              $set: { 'offer.lapsed': { at: now, editedRevision: order.editedRevision } },
              $inc: { revision: 1 },
              $push: { outbox: event },
            },
          );
          if (res.matchedCount === 0) return stop('changed meanwhile' as const);
          ctx.eventsWritten();
        },
      },
      { name: "release the estimate's holds", run: async () => booked?.afterWrite() },
    ],
    ctx.log,
  );
  return !lost;
}

/**
 * An offer that lapsed with its estimate Open and unaccepted, as stored: what lets its deposit go.
 * Not for an estimate invoiced since (its invoice captures the deposit) or accepted again.
 */
const lapsedUnaccepted = (doc: Estimate) => doc.status === 'Open' && !doc.acceptance && !!doc.offer?.lapsed;

/**
 * Lapsed offers whose deposit is still authorised (a signature a change voided, then the offer
 * ended): the sweep's second step after the lapse's write, so one a crash left between the two is
 * found by the next sweep.
 */
export async function lapsedAuthorisedDeposits(ctx: OrderContext, now: Date, limit = 50): Promise<string[]> {
  const docs = await ctx.estimates
    .find(
      {
        status: 'Open',
        acceptance: null,
        'offer.expiresAt': { $lte: now },
        'offer.lapsed': { $ne: null },
        'deposit.state': 'authorised',
      },
      { _id: 1 },
    )
    .limit(limit)
    .lean();
  return docs.map((d) => d._id.toString());
}

/**
 * The deposit still authorised on a lapsed offer is cancelled at the provider and recorded
 * 'released' (EstimateDepositChanged), once: the provider's cancel is idempotent and the write is
 * guarded by the deposit's state. Its cause is the lapse (the expiry event's correlation id).
 */
export async function releaseLapsedDeposit(ctx: OrderContext, id: string): Promise<boolean> {
  const doc = await ctx.estimates.findById(id, { offer: 1 }).lean<Estimate>();
  if (!doc?.offer?.lapsed) return false;
  const correlationId = `offer-expired-${id}-${new Date(doc.offer.expiresAt).getTime()}`;
  return releaseDeposit(ctx, id, correlationId, lapsedUnaccepted);
}

/**
 * An estimate whose offer lapsed holds nothing; what makes it a booking again (staff's extension, an
 * invoice requested from it) first books its lines against what is free now — never beyond, as the
 * units may have gone to someone else. Throws ShortLinesError with every short line, nothing booked.
 * No undo: a write that then fails leaves unconfirmed holds the hold sweeper settles to the stored order.
 */
export const bookLapsedAgain = (ctx: OrderContext, order: OrderRecord): Promise<BookedChange> =>
  bookChange(ctx, order, { ...order, offerLapsedAtEdit: null });

/** Every answer of `POST /api/estimate/:id/acceptance/extend`. */
export type ExtendAnswer =
  | { status: 200; loaded: EstimateWithAcceptance }
  | { status: 404 }
  | { status: 409; message: string; shortLines?: ShortLine[] };

/**
 * Staff extend the offer of an offered, unaccepted estimate to `days` days from now: it awaits
 * acceptance again. When its holds were released at expiry they are booked again first, against
 * what is free now — a short line answers 409 with every short line and nothing changes. Then one
 * guarded write of the new expiry with EstimateOfferExtended; a lost race is recomputed.
 */
export async function extendOffer(
  ctx: OrderContext,
  id: string,
  days: number,
  actor: Actor,
  correlationId: string,
): Promise<ExtendAnswer> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const read = await readEstimateWithAcceptance(ctx, id);
    if (!read) return { status: 404 };
    // An Open estimate sent before issue 30 gets its offer first (then extended like any other).
    const { order, facts } = await withOffer(ctx, read);
    const now = new Date();
    const refusal = extendRefusal(order, facts, now);
    if (refusal || !facts.offer) return { status: 409, message: refusal ?? CHANGED_MEANWHILE };
    const lapsed = offerLapsed(order);
    const expiresAt = new Date(now.getTime() + days * DAY_MS);
    const event = newEvent(EstimateOfferExtended, {
      aggregateId: id,
      correlationId,
      payload: {
        order: orderState({ ...order, revision: order.revision + 1 }),
        actor,
        expiresAt: expiresAt.toISOString(),
        previousExpiresAt: new Date(facts.offer.expiresAt).toISOString(),
        holdsTaken: lapsed,
      },
    });
    let lost: 'changed meanwhile' | undefined;
    try {
      lost = await runFlow<OrderContext, 'changed meanwhile'>(
        "extend an estimate's offer",
        ctx,
        [
          lapsed && {
            // Throws ShortLinesError with nothing booked when a line no longer fits. No undo: a
            // write that then loses leaves unconfirmed holds the hold sweeper releases again.
            name: "book the estimate's lines again",
            run: async () => bookLapsedAgain(ctx, order),
          },
          {
            name: 'write the new expiry with EstimateOfferExtended',
            run: async () => {
              const res = await ctx.estimates.updateOne(
                { _id: id, ...OFFERED, revision: revisionGuard(order) },
                {
                  $set: { 'offer.expiresAt': expiresAt, 'offer.lapsed': null },
                  $inc: { revision: 1 },
                  $push: { outbox: event },
                },
              );
              if (res.matchedCount === 0) return stop('changed meanwhile' as const);
              ctx.eventsWritten();
            },
          },
        ],
        ctx.log,
      );
    } catch (err) {
      if (!(err instanceof ShortLinesError)) throw err;
      return { status: 409, message: err.message, shortLines: err.shortLines };
    }
    if (!lost) {
      const fresh = await readEstimateWithAcceptance(ctx, id);
      if (fresh) return { status: 200, loaded: fresh };
    }
  }
  return { status: 409, message: CHANGED_MEANWHILE };
}

/**
 * The orders list's `acceptance` filter as a query on the estimate's own fields — the facts
 * `stateOf` reads, at `now` — so the filter and the rows' marks agree, with no stored copy of the
 * state for the clock to outdate (an offer is expired from its end, before the sweep marks it). A row
 * without an acceptance mark (never offered) counts as 'not-offered'.
 */
export function acceptanceStateFilter(state: AcceptanceState, now: Date): Record<string, unknown> {
  switch (state) {
    case 'accepted':
      return { acceptance: { $ne: null } };
    case 'expired':
      return { ...OFFERED, 'offer.expiresAt': { $lte: now } };
    case 'awaiting':
      return { ...OFFERED, 'offer.expiresAt': { $gt: now }, 'voidedChanges.0': { $exists: false } };
    case 'voided':
      return { ...OFFERED, 'offer.expiresAt': { $gt: now }, 'voidedChanges.0': { $exists: true } };
    case 'not-offered':
      return {
        acceptance: null,
        $or: [{ offer: null }, { status: { $ne: 'Open' } }, { hasBeenModified: true }],
      };
  }
}
