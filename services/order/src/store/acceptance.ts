import {
  type Actor,
  type DepositState,
  EstimateAccepted,
  EstimateDepositChanged,
  EstimateOffered,
} from '@decor/contracts';
import { newEvent } from '@decor/kit';
import { type Connection, type Model, Schema, Types } from 'mongoose';
import type { OrderContext } from '../context';
import {
  type AcceptanceFacts,
  type AcceptanceRecord,
  type Deposit,
  type Offer,
  type PendingAuthorisation,
  stateOf,
} from '../domain/acceptance';
import { orderState } from '../domain/decide';
import type { OrderRecord } from '../domain/view';
import { type Estimate, estimateRecord } from './estimate-model';
import { HIDDEN } from './orders';
import { duplicateKeyField } from './writes';

/**
 * The acceptance's writes on the estimate document (issue 30). Each is one guarded update: the
 * record, its deposit and the EstimateAccepted event land together or not at all (the pattern of
 * store/orders.ts), and the pending-authorisation marks the sweeper works from are kept beside them.
 */

export interface EstimateWithAcceptance {
  order: OrderRecord;
  facts: AcceptanceFacts;
  pending: PendingAuthorisation[];
  attempt: number;
}

const factsOf = (doc: Estimate): AcceptanceFacts => ({
  offer: doc.offer ?? null,
  acceptance: doc.acceptance ?? null,
  deposit: doc.deposit ?? null,
  voidedChanges: doc.voidedChanges?.length ? doc.voidedChanges : null,
  depositOnVoid: doc.depositOnVoid ?? null,
});

export async function readEstimateWithAcceptance(
  ctx: OrderContext,
  id: string,
): Promise<EstimateWithAcceptance | null> {
  if (!Types.ObjectId.isValid(id)) return null;
  const doc = await ctx.estimates.findById(id, HIDDEN).lean<Estimate>();
  if (!doc) return null;
  return {
    order: estimateRecord(doc),
    facts: factsOf(doc),
    pending: doc.pendingAuthorisations ?? [],
    attempt: doc.acceptanceAttempt ?? 0,
  };
}

/**
 * Records the offer an Open estimate is read with when it has none (estimates opened before issue 30),
 * unless it is accepted (a signature stands on its own offer). A send writes its offer with the
 * status it opens (`offeredEvent`, accept.ts' `offerWithSend`).
 */
export async function recordOffer(ctx: OrderContext, id: string, offer: Offer): Promise<boolean> {
  const res = await ctx.estimates.updateOne(
    { _id: id, status: 'Open', acceptance: null, offer: null },
    { $set: { offer } },
  );
  return res.matchedCount > 0;
}

/** EstimateOffered: the customer's e-mail of a sent estimate (the deposit, the acceptance link). */
export function offeredEvent(order: OrderRecord, offer: Offer, opened: boolean) {
  return newEvent(EstimateOffered, {
    aggregateId: order.id,
    correlationId: `offer-${order.id}-${offer.sentAt.getTime()}`,
    payload: {
      order: orderState(order),
      opened,
      depositCents: offer.depositCents,
      expiresAt: offer.expiresAt.toISOString(),
      agreementVersion: offer.agreementVersion,
    },
  });
}

/** Whether the estimate carries an acceptance (read beside a change: its write is revision-guarded). */
export async function isAccepted(ctx: OrderContext, id: string): Promise<boolean> {
  return (await ctx.estimates.exists({ _id: id, acceptance: { $ne: null } })) !== null;
}

/**
 * Step "mark the authorisation pending": the sweeper cancels it if no acceptance follows. Only on
 * the revision the customer reviewed; a racing request with the same key finds it there already.
 */
/** The attempt an acceptance read (a document that never had one has none: 0). */
const sameAttempt = (attempt: number) =>
  attempt === 0 ? { acceptanceAttempt: { $in: [0, null] } } : { acceptanceAttempt: attempt };

/**
 * The mark of an authorisation about to be asked. 'stale': the sweeper is cancelling this key's
 * authorisation, or has (the attempt moved on): the provider would replay it as held, so the caller
 * reads again and asks under the next attempt's key.
 */
export async function addPending(
  ctx: OrderContext,
  loaded: Pick<EstimateWithAcceptance, 'order' | 'attempt'>,
  pending: PendingAuthorisation,
): Promise<'added' | 'present' | 'changed' | 'stale'> {
  const { order, attempt } = loaded;
  const res = await ctx.estimates.updateOne(
    {
      _id: order.id,
      revision: order.revision,
      acceptance: null,
      ...sameAttempt(attempt),
      'pendingAuthorisations.key': { $ne: pending.key },
    },
    { $push: { pendingAuthorisations: pending } },
  );
  if (res.matchedCount > 0) return 'added';
  const doc = await ctx.estimates
    .findById(order.id, { pendingAuthorisations: 1, acceptanceAttempt: 1, revision: 1, acceptance: 1 })
    .lean<Estimate>();
  if (!doc || (doc.revision ?? 0) !== order.revision || doc.acceptance) return 'changed';
  const mark = doc.pendingAuthorisations?.find((p) => p.key === pending.key);
  if ((doc.acceptanceAttempt ?? 0) !== attempt || mark?.sweeping) return 'stale';
  return mark ? 'present' : 'changed';
}

/**
 * The sweeper takes a mark before it cancels its authorisation: flagged, it can no longer be
 * recorded (recordAcceptance asks for it unflagged). False: the mark is gone (recorded or dropped).
 */
export async function claimForSweep(ctx: OrderContext, id: string, key: string): Promise<boolean> {
  const res = await ctx.estimates.updateOne(
    { _id: id, 'pendingAuthorisations.key': key },
    { $set: { 'pendingAuthorisations.$.sweeping': true } },
  );
  return res.matchedCount > 0;
}

/** Undo of the mark (and after a cancelled authorisation, the next attempt uses a new provider key). */
export async function dropPending(
  ctx: OrderContext,
  id: string,
  key: string,
  cancelled: boolean,
): Promise<void> {
  await ctx.estimates.updateOne(
    { _id: id },
    { $pull: { pendingAuthorisations: { key } }, ...(cancelled ? { $inc: { acceptanceAttempt: 1 } } : {}) },
  );
}

/**
 * THE write: the acceptance record, its deposit, the mark removed, revision + 1 and EstimateAccepted
 * in the outbox — only if the estimate is still the one reviewed (revision, Open) and not accepted.
 * Written: the estimate as this write left it (what a read right after would find: the answer is
 * built from it rather than read again); null: the estimate changed meanwhile, nothing written.
 */
export async function recordAcceptance(
  ctx: OrderContext,
  loaded: EstimateWithAcceptance,
  record: AcceptanceRecord,
  deposit: Deposit,
  pendingKey: string | null,
  actor: Actor,
  correlationId: string,
): Promise<EstimateWithAcceptance | null> {
  const { order } = loaded;
  const after = { ...order, revision: order.revision + 1 };
  const event = newEvent(EstimateAccepted, {
    aggregateId: order.id,
    correlationId,
    payload: {
      order: orderState(after),
      actor,
      acceptance: {
        signerName: record.signerName,
        at: record.at.toISOString(),
        agreementVersion: record.agreementVersion,
        estimateVersion: record.estimateVersion,
        deposit: {
          amountCents: deposit.amountCents,
          state: deposit.state,
          ...(deposit.intentId ? { intentId: deposit.intentId } : {}),
        },
      },
    },
  });
  const res = await ctx.estimates.updateOne(
    {
      _id: order.id,
      revision: order.revision,
      status: 'Open',
      acceptance: null,
      // Its authorisation's mark still there and not taken by the sweeper (which cancels it).
      ...(pendingKey
        ? { pendingAuthorisations: { $elemMatch: { key: pendingKey, sweeping: { $ne: true } } } }
        : {}),
    },
    {
      $set: { acceptance: record, deposit, voidedChanges: [] },
      ...(pendingKey ? { $pull: { pendingAuthorisations: { key: pendingKey } } } : {}),
      $inc: { revision: 1 },
      $push: { outbox: event },
    },
  );
  if (res.matchedCount === 0) return null;
  // A scan, not this document's id: in a burst one round claims the written documents together;
  // a hint per write made many small rounds beside the requests (100 at once: p99 1.3 s, not 0.86).
  ctx.eventsWritten();
  const facts = { ...loaded.facts, acceptance: record, deposit, voidedChanges: null };
  const summary = {
    state: stateOf(after, facts, new Date()),
    depositState: deposit.state,
    expiresAt: facts.offer?.expiresAt ? new Date(facts.offer.expiresAt).toISOString() : null,
  };
  return {
    order: { ...after, acceptance: summary },
    facts,
    pending: loaded.pending.filter((p) => p.key !== pendingKey),
    attempt: loaded.attempt,
  };
}

/** Marks older than `cutoff` (a crash, or a request that died, between authorisation and record). */
export async function danglingAuthorisations(
  ctx: OrderContext,
  cutoff: Date,
  limit = 50,
): Promise<{ id: string; pending: PendingAuthorisation; acceptedIntent: string | null }[]> {
  const docs = await ctx.estimates
    .find({ 'pendingAuthorisations.at': { $lt: cutoff } }, { pendingAuthorisations: 1, deposit: 1 })
    .limit(limit)
    .lean<Estimate[]>();
  return docs.flatMap((doc) =>
    (doc.pendingAuthorisations ?? [])
      .filter((p) => new Date(p.at) < cutoff)
      .map((pending) => ({ id: doc._id.toString(), pending, acceptedIntent: doc.deposit?.intentId ?? null })),
  );
}

/**
 * The provider says the deposit moved (a webhook): the estimate holding that intent gets the new
 * state and EstimateDepositChanged, once (an unchanged state writes nothing).
 */
export async function setDepositState(
  ctx: OrderContext,
  intentId: string,
  state: DepositState,
  correlationId: string,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await ctx.estimates.findOne({ 'deposit.intentId': intentId }, HIDDEN).lean<Estimate>();
    if (!doc?.deposit || doc.deposit.state === state) return false;
    const order = { ...estimateRecord(doc), revision: (doc.revision ?? 0) + 1 };
    const deposit: Deposit = { ...doc.deposit, state };
    const event = newEvent(EstimateDepositChanged, {
      aggregateId: order.id,
      correlationId,
      payload: {
        order: orderState(order),
        from: doc.deposit.state,
        deposit: {
          amountCents: deposit.amountCents,
          state,
          ...(deposit.intentId ? { intentId: deposit.intentId } : {}),
        },
      },
    });
    const res = await ctx.estimates.updateOne(
      { _id: doc._id, revision: doc.revision ?? 0 },
      { $set: { 'deposit.state': state }, $inc: { revision: 1 }, $push: { outbox: event } },
    );
    if (res.matchedCount > 0) {
      ctx.eventsWritten();
      return true;
    }
  }
  return false;
}

/** Provider webhook events already handled, by id: a replay is a no-op. */
export type PaymentEventModel = Model<{ _id: string; type: string; at: Date }>;

export function paymentEventModel(connection: Connection): PaymentEventModel {
  const schema = new Schema<{ _id: string; type: string; at: Date }>(
    { _id: String, type: String, at: Date },
    { versionKey: false },
  );
  return connection.model('PaymentEvent', schema, 'payment_events');
}

export const seenPaymentEvent = async (ctx: OrderContext, id: string) =>
  (await ctx.paymentEvents.exists({ _id: id })) !== null;

export async function rememberPaymentEvent(ctx: OrderContext, id: string, type: string): Promise<void> {
  try {
    await ctx.paymentEvents.create({ _id: id, type, at: new Date() });
  } catch (err) {
    if (duplicateKeyField(err) === undefined) throw err; // handled twice at once: both no-ops
  }
}
