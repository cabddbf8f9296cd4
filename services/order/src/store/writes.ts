import { EstimateSubmitted } from '@decor/contracts';
import { newEvent, serviceUnavailable } from '@decor/kit';
import { Types } from 'mongoose';
import type { OrderContext } from '../context';
import { docNumberOf, type EstimateDraft } from '../domain/estimate';
import type { Estimate } from './estimate-model';

const DOC_NUMBER_COUNTER = 'estimateDocNumber';

/** The index a duplicate-key error is about ('cartId', 'docNumber', …), or undefined if not one. */
export function duplicateKeyField(err: unknown): string | undefined {
  const e = err as { code?: number; keyPattern?: Record<string, unknown>; message?: string };
  if (e?.code !== 11000) return undefined;
  const fromPattern = Object.keys(e.keyPattern ?? {})[0];
  if (fromPattern) return fromPattern;
  // mongo-java-server names only the index: "… index: docNumber_1 dup key: …"
  return /index: (\w+?)_-?1 dup key/.exec(e.message ?? '')?.[1] ?? '';
}

/** Creates the DocNumber counter at start, so the first submissions never race to create it. */
export async function ensureDocNumberCounter(ctx: OrderContext): Promise<void> {
  try {
    await ctx.counters.updateOne({ _id: DOC_NUMBER_COUNTER }, { $setOnInsert: { seq: 0 } }, { upsert: true });
  } catch (err) {
    if (duplicateKeyField(err) === undefined) throw err; // another instance created it just now
  }
}

/**
 * The next DocNumber: '1001', '1002', … from one counter document incremented atomically (and
 * created by the first call if missing). A number is spent when taken: if the estimate's insert then
 * fails (it lost a race with a second submission of the same cart), that number is skipped. Numbers
 * stay unique and increasing; they are not guaranteed gap-free.
 */
export async function nextDocNumber(ctx: OrderContext): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const counter = await ctx.counters
        .findOneAndUpdate({ _id: DOC_NUMBER_COUNTER }, { $inc: { seq: 1 } }, { upsert: true, new: true })
        .lean();
      if (counter) return docNumberOf(counter.seq);
    } catch (err) {
      // Two first-ever upserts raced and this one lost the insert: the retry is a plain increment.
      if (duplicateKeyField(err) === undefined || attempt >= 3) throw err;
    }
  }
}

export interface Submission {
  draft: EstimateDraft;
  customer: Estimate['customer'];
  /** `<userId>:<Idempotency-Key>`, when the request carried one. */
  idempotencyScope?: string;
  correlationId: string;
  /** The estimate's id, chosen before its insert (its booking is made under it first). */
  id?: Types.ObjectId;
}

export type InsertOutcome = { inserted: Estimate } | { duplicateOf: 'cart or key' };

const DOC_NUMBER_ATTEMPTS = 5;

/**
 * Stores the estimate and its EstimateSubmitted event in ONE insert (the event sits in the new
 * document's outbox; the relay publishes it), so there is never an estimate without its event or
 * the reverse. The unique indexes decide races: a second estimate of the same cart, or of the same
 * Idempotency-Key, is not inserted (`duplicateOf`). A DocNumber already taken (the unique index on
 * it guards the counter too: mongo-java-server's findOneAndUpdate can return the same post-increment
 * value to two concurrent callers) is replaced by the next one.
 */
export async function insertEstimate(ctx: OrderContext, submission: Submission): Promise<InsertOutcome> {
  const { draft, customer, idempotencyScope, correlationId } = submission;
  const _id = submission.id ?? new Types.ObjectId();
  for (let attempt = 1; attempt <= DOC_NUMBER_ATTEMPTS; attempt++) {
    const docNumber = await nextDocNumber(ctx);
    const estimateId = _id.toString();
    const now = new Date();
    const event = newEvent(EstimateSubmitted, {
      aggregateId: estimateId,
      correlationId,
      payload: {
        estimateId,
        docNumber,
        status: draft.status,
        userId: draft.userId,
        cartId: draft.cartId,
        customer: {
          email: customer.email,
          displayName: customer.displayName,
          ...(customer.ownCompany ? { companyName: customer.ownCompany } : {}),
        },
        details: draft.details,
        lines: draft.lines.map(({ qboId, ...line }) => ({ ...line, ...(qboId ? { qboId } : {}) })),
        subtotalCents: draft.subtotalCents,
        truckingCents: draft.truckingCents,
        taxCents: draft.taxCents,
        totalCents: draft.totalCents,
        submittedAt: now.toISOString(),
      },
    });
    try {
      const inserted = await ctx.estimates.create({
        _id,
        docNumber,
        userId: draft.userId,
        cartId: draft.cartId,
        ...(idempotencyScope ? { idempotencyScope } : {}),
        status: draft.status,
        hasBeenModified: false,
        hasInvoice: false,
        isInQbo: false,
        qboId: null,
        syncToken: null,
        details: draft.details,
        lines: draft.lines,
        subtotalCents: draft.subtotalCents,
        truckingCents: draft.truckingCents,
        taxCents: draft.taxCents,
        totalCents: draft.totalCents,
        customer,
        createdAt: now,
        outbox: [event],
      });
      return { inserted: inserted.toObject() };
    } catch (err) {
      const field = duplicateKeyField(err);
      if (field === undefined) throw err;
      if (field !== 'docNumber') return { duplicateOf: 'cart or key' };
    }
  }
  throw serviceUnavailable('Too many order requests at once; please try again');
}
