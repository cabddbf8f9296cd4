import {
  DepositCaptured,
  type DepositOnVoid,
  EstimateDepositChanged,
  SignatureVoided,
} from '@decor/contracts';
import { newEvent } from '@decor/kit';
import type { OrderContext } from '../context';
import type { Deposit } from '../domain/acceptance';
import { orderState } from '../domain/decide';
import { type Estimate, estimateRecord } from './estimate-model';
import { HIDDEN } from './orders';

/**
 * What happens to an accepted estimate's deposit when the estimate moves on (issue 30): taken when
 * it becomes an invoice, let go when it is voided, and the signature voided by a change. Each is
 * the provider's call (idempotent there) then one guarded write of the estimate with its events;
 * run by this service's own consumer of the order topic, so a crash in between is redelivered.
 */

const ATTEMPTS = 5;

/** One guarded write of the estimate `id` computed from it as read; recomputed when it moved. */
async function changeEstimate(
  ctx: OrderContext,
  id: string,
  change: (doc: Estimate) => { $set: Record<string, unknown>; events: ReturnType<typeof newEvent>[] } | null,
): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const doc = await ctx.estimates.findById(id, HIDDEN).lean<Estimate>();
    const next = doc ? change(doc) : null;
    if (!doc || !next) return false;
    const res = await ctx.estimates.updateOne(
      { _id: doc._id, revision: doc.revision ?? 0 },
      { $set: next.$set, $inc: { revision: 1 }, $push: { outbox: { $each: next.events } } },
    );
    if (res.matchedCount > 0) {
      ctx.eventsWritten();
      return true;
    }
  }
  return false;
}

const depositEvent = (doc: Estimate, deposit: Deposit, correlationId: string) =>
  newEvent(EstimateDepositChanged, {
    aggregateId: doc._id.toString(),
    correlationId,
    payload: {
      order: orderState({ ...estimateRecord(doc), revision: (doc.revision ?? 0) + 1 }),
      from: doc.deposit?.state ?? 'authorised',
      deposit: {
        amountCents: deposit.amountCents,
        state: deposit.state,
        ...(deposit.intentId ? { intentId: deposit.intentId } : {}),
      },
    },
  });

/** The invoice of an accepted estimate: capture its deposit, at most the invoice's total. */
export async function captureDeposit(
  ctx: OrderContext,
  estimateId: string,
  invoice: { id: string; totalCents: number },
  correlationId: string,
): Promise<boolean> {
  const doc = await ctx.estimates.findById(estimateId, { deposit: 1 }).lean<Estimate>();
  const deposit = doc?.deposit;
  if (!deposit?.intentId || deposit.state !== 'authorised') return false;
  const amountCents = Math.min(deposit.amountCents, invoice.totalCents);
  const intent = await ctx.payments.capture(deposit.intentId, amountCents);
  if (intent.status !== 'succeeded') return false; // released or lapsed meanwhile: nothing was taken
  return changeEstimate(ctx, estimateId, (current) => {
    if (current.deposit?.intentId !== deposit.intentId || current.deposit.state === 'captured') return null;
    const next: Deposit = { ...deposit, state: 'captured', amountCents: intent.capturedCents || amountCents };
    return {
      $set: { deposit: next },
      events: [
        depositEvent(current, next, correlationId),
        newEvent(DepositCaptured, {
          aggregateId: estimateId,
          correlationId,
          payload: {
            estimateId,
            invoiceId: invoice.id,
            docNumber: current.docNumber,
            userId: current.userId,
            intentId: deposit.intentId as string,
            amountCents: next.amountCents,
            capturedAt: new Date().toISOString(),
          },
        }),
      ],
    };
  });
}

/**
 * A voided estimate (or one whose offer lapsed: `still`, checked on the estimate just before the
 * provider's call) lets its authorised deposit go at the provider.
 */
export async function releaseDeposit(
  ctx: OrderContext,
  estimateId: string,
  correlationId: string,
  still: (doc: Estimate) => boolean = () => true,
): Promise<boolean> {
  const doc = await ctx.estimates
    .findById(estimateId, { deposit: 1, status: 1, acceptance: 1, offer: 1 })
    .lean<Estimate>();
  const deposit = doc?.deposit;
  if (!doc || !deposit?.intentId || deposit.state !== 'authorised' || !still(doc)) return false;
  // Cancelling is idempotent at the provider (a cancelled intent answers as it is), and the write
  // below is guarded by the deposit's state: two releases at once record one.
  const intent = await ctx.payments.cancel(deposit.intentId);
  if (intent.status !== 'canceled') return false;
  return changeEstimate(ctx, estimateId, (current) => {
    if (current.deposit?.intentId !== deposit.intentId || current.deposit.state !== 'authorised') return null;
    const next: Deposit = { ...deposit, state: 'released' };
    return { $set: { deposit: next }, events: [depositEvent(current, next, correlationId)] };
  });
}

/**
 * A change of an accepted estimate's lines, dates or details (by staff or the customer) voids the
 * signature: the record is kept among the earlier ones, what changed is noted for the screens and
 * e-mail, and the customer signs again once it is sent again. The deposit authorised stays.
 */
export async function voidSignature(
  ctx: OrderContext,
  estimateId: string,
  changed: string[],
  correlationId: string,
): Promise<boolean> {
  return changeEstimate(ctx, estimateId, (current) => {
    if (!current.acceptance) return null;
    const voidedChanges = changed.length > 0 ? changed : ['estimate'];
    // SignatureVoided: the customer's e-mail asking to sign again (the notification service).
    const event = newEvent(SignatureVoided, {
      aggregateId: current._id.toString(),
      correlationId,
      payload: {
        order: orderState({ ...estimateRecord(current), revision: (current.revision ?? 0) + 1 }),
        changed: voidedChanges,
        signedAt: new Date(current.acceptance.at).toISOString(),
      },
    });
    return {
      $set: {
        acceptance: null,
        voidedChanges,
        earlierAcceptances: [...(current.earlierAcceptances ?? []), current.acceptance],
      },
      events: [event],
    };
  });
}

/** The captured deposit of an estimate (what voiding its invoice must decide about), or null. */
export async function capturedDeposit(ctx: OrderContext, estimateId: string): Promise<Deposit | null> {
  const doc = await ctx.estimates.findById(estimateId, { deposit: 1 }).lean<Estimate>();
  return doc?.deposit?.state === 'captured' ? doc.deposit : null;
}

/** Staff's choice, stored before the void it goes with (acted on only once the invoice is Voided). */
export async function chooseOnVoid(ctx: OrderContext, estimateId: string, action: DepositOnVoid) {
  await ctx.estimates.updateOne(
    { _id: estimateId, 'deposit.state': 'captured' },
    { $set: { depositOnVoid: action } },
  );
}

/** A voided invoice whose estimate's deposit staff chose to refund: refunded at the provider, once. */
export async function refundDeposit(ctx: OrderContext, estimateId: string, correlationId: string) {
  const doc = await ctx.estimates.findById(estimateId, { deposit: 1, depositOnVoid: 1 }).lean<Estimate>();
  const deposit = doc?.deposit;
  if (!deposit?.intentId || deposit.state !== 'captured' || doc?.depositOnVoid !== 'refund') return false;
  await ctx.payments.refund(deposit.intentId, deposit.amountCents);
  return changeEstimate(ctx, estimateId, (current) => {
    if (current.deposit?.intentId !== deposit.intentId || current.deposit.state !== 'captured') return null;
    const next: Deposit = { ...deposit, state: 'refunded' };
    return { $set: { deposit: next }, events: [depositEvent(current, next, correlationId)] };
  });
}
