/**
 * A cap on the events one document keeps pending in its outbox. While Kafka is away every write
 * still lands (its events wait in the document, and the relay drains them once Kafka is back), but
 * a document cannot grow without bound: past the cap, a write that adds events is refused with a
 * 503 and changes nothing.
 */
import type { EventEnvelope } from '@decor/contracts';
import type { mongo, Query, Schema } from 'mongoose';
import { DependencyUnavailableError } from '../http/unavailable';

/** Events one document may hold unpublished. A busy cart changes a few times a minute. */
export const MAX_PENDING_EVENTS = 100;

export class OutboxFullError extends DependencyUnavailableError {
  constructor() {
    super('backlog');
    this.name = 'OutboxFullError';
  }
}

/** The rule: `adding` more events fit beside `pending` ones. */
export function outboxHasRoom(pending: number, adding: number, cap = MAX_PENDING_EVENTS): boolean {
  return pending + adding <= cap;
}

/**
 * The same rule as a query condition: the outbox has no element at index `cap - adding`, i.e. it
 * holds at most `cap - adding` events. More than `cap` at once never fits.
 */
export function roomCondition(adding: number, cap = MAX_PENDING_EVENTS): Record<string, unknown> {
  if (adding > cap) return { _id: { $in: [] } };
  return { [`outbox.${cap - adding}`]: { $exists: false } };
}

/** The opposite condition: too full for `adding` more. */
function fullCondition(adding: number, cap: number): Record<string, unknown> {
  if (adding > cap) return {};
  return { [`outbox.${cap - adding}`]: { $exists: true } };
}

/** How many events an update adds to the outbox: `$push: { outbox: e }` or `{ $each: [...] }`. */
export function eventsPushed(update: unknown): number {
  const push = (update as { $push?: { outbox?: unknown } } | null)?.$push?.outbox;
  if (push === undefined) return 0;
  const each = (push as { $each?: unknown }).$each;
  if (Array.isArray(each)) return each.length;
  return 1;
}

type CappedQuery = Query<unknown, unknown> & {
  _outboxCap?: { filter: Record<string, unknown>; adding: number };
};

/**
 * Guards updates that push onto the outbox (upserts are left alone: an unmatched upsert would insert
 * a second document). When the guarded update matches nothing, it asks whether the cap is why, and
 * then throws OutboxFullError rather than let the writer think another write came first.
 */
export function capOutbox(schema: Schema, cap = MAX_PENDING_EVENTS): void {
  const ops: ['updateOne', 'findOneAndUpdate'] = ['updateOne', 'findOneAndUpdate'];
  schema.pre(ops, function (this: CappedQuery) {
    const adding = eventsPushed(this.getUpdate());
    if (adding === 0 || this.getOptions().upsert) return;
    this._outboxCap = { filter: { ...this.getFilter() }, adding };
    this.where(roomCondition(adding, cap));
  });
  schema.post(ops, async function (this: CappedQuery, result: unknown) {
    const capped = this._outboxCap;
    if (!capped) return;
    const matched =
      result && typeof result === 'object' && 'matchedCount' in result
        ? (result as { matchedCount: number }).matchedCount > 0
        : result !== null && result !== undefined;
    if (matched) return;
    const full = await this.model.exists({ $and: [capped.filter, fullCondition(capped.adding, cap)] });
    if (full) throw new OutboxFullError();
  });
  schema.pre('save', function () {
    const outbox = (this as unknown as { outbox?: unknown[] }).outbox;
    if (!this.isNew && this.isModified('outbox') && (outbox?.length ?? 0) > cap) throw new OutboxFullError();
  });
}

/**
 * `updateOne` of a write with events straight through the driver, for a hot path whose update is
 * already as stored: no mongoose casting, defaults, setters, middleware or timestamps (the caller
 * sets `updatedAt` itself), which cost the user service a sixth of its CPU per password reset. The
 * same cap as `capOutbox`: answers whether a document matched, and throws OutboxFullError when one
 * matched but its outbox had no room for the events.
 */
export async function updateOneWithEvents(
  // biome-ignore lint/suspicious/noExplicitAny: any aggregate's collection; only the outbox is read here
  collection: mongo.Collection<any>,
  filter: Record<string, unknown>,
  update: { $set?: Record<string, unknown>; $push: { outbox: EventEnvelope | { $each: EventEnvelope[] } } },
  cap = MAX_PENDING_EVENTS,
): Promise<boolean> {
  const adding = eventsPushed(update);
  if (adding <= cap) {
    const res = await collection.updateOne(
      { ...filter, ...roomCondition(adding, cap) },
      update as unknown as mongo.UpdateFilter<mongo.Document>,
    );
    if (res.matchedCount > 0) return true;
  }
  const full = await collection.findOne(
    { $and: [filter, fullCondition(adding, cap)] },
    { projection: { _id: 1 } },
  );
  if (full) throw new OutboxFullError();
  return false;
}
