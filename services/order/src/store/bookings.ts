import type { ShortLine } from '@decor/contracts';
import { type FlowLog, flowStep, runFlow, serviceUnavailable, stop } from '@decor/kit';
import {
  type BookingOptions,
  confirmHold,
  type Hold,
  type LineRequest,
  rebook,
  restore,
} from '../domain/bookings';
import { KeyedBatches } from './ledger-batches';
import type { Ledger, LedgerModel } from './ledger-model';
import { duplicateKeyField } from './writes';

/** What booking needs: the ledgers, what the shop owns of each product, this instance's batches of ledger writes, a log for undos that fail. */
export interface BookingStore {
  ledgers: LedgerModel;
  owned(sku: string): Promise<number>;
  batches: KeyedBatches<LedgerChange, LedgerChangeOutcome>;
  log: FlowLog;
}

/** The batches of ledger writes of one instance (group commit per product). */
export const ledgerBatches = (ledgers: LedgerModel) =>
  new KeyedBatches<LedgerChange, LedgerChangeOutcome>((sku, changes) =>
    applyLedgerChanges(ledgers, sku, changes),
  );

/** Writers in other instances can beat this one to a ledger; each lost race is a fresh read. */
const WRITE_ATTEMPTS = 20;

async function readLedger(ledgers: LedgerModel, sku: string): Promise<Ledger> {
  return (await ledgers.findById(sku).lean<Ledger>()) ?? { _id: sku, version: 0, holds: [] };
}

/**
 * Writes `holds` over `before` if the ledger is still at `version` (creating it at 0); false when
 * another writer was first. When the change only adds holds (new orders: the usual case) it pushes
 * them, so a busy product's ledger is not rewritten whole for every booking.
 */
async function writeIfUnchanged(
  ledgers: LedgerModel,
  sku: string,
  version: number,
  before: Hold[],
  holds: Hold[],
) {
  const onlyAdded = holds.length > before.length && before.every((h, i) => holds[i] === h);
  const change = onlyAdded
    ? { $push: { holds: { $each: holds.slice(before.length) } } }
    : { $set: { holds } };
  try {
    const res = await ledgers.updateOne(
      { _id: sku, version },
      { ...change, $inc: { version: 1 } },
      {
        upsert: version === 0,
      },
    );
    return res.matchedCount + res.upsertedCount > 0;
  } catch (err) {
    if (duplicateKeyField(err) !== undefined) return false; // two first writers: the other created it
    throw err;
  }
}

/** One order's change of a product's ledger: its next holds computed from the current ones, or a short line. */
export interface LedgerChange {
  orderId: string;
  next(ledger: Ledger): { holds: Hold[] } | { short: ShortLine };
}

export type LedgerChangeOutcome = { previous: Hold | undefined } | { short: ShortLine };

/**
 * The changes of one product's ledger waiting together (`KeyedBatches`): read once, apply each on the
 * holds the ones before it left, write once if nobody wrote meanwhile, else all again from a fresh
 * read. Each answers its order's hold as it was before its change (for the undo), or its short line.
 */
export async function applyLedgerChanges(
  ledgers: LedgerModel,
  sku: string,
  changes: readonly LedgerChange[],
): Promise<LedgerChangeOutcome[]> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const ledger = await readLedger(ledgers, sku);
    let holds = ledger.holds;
    const outcomes = changes.map((change): LedgerChangeOutcome => {
      const outcome = change.next({ ...ledger, holds });
      if ('short' in outcome) return outcome;
      const previous = holds.find((h) => h.orderId === change.orderId);
      holds = outcome.holds;
      return { previous };
    });
    if (holds === ledger.holds || (await writeIfUnchanged(ledgers, sku, ledger.version, ledger.holds, holds)))
      return outcomes;
  }
  throw serviceUnavailable('Too many bookings of this product at once; please try again');
}

/** One guarded change of one product's ledger, written together with the others waiting for it. */
function changeLedger(
  store: BookingStore,
  sku: string,
  orderId: string,
  next: LedgerChange['next'],
): Promise<LedgerChangeOutcome> {
  return store.batches.add(sku, { orderId, next });
}

/** Step undo: `orderId`'s hold on `sku` put back as it was (removed if it had none). */
async function undoHold(store: BookingStore, sku: string, orderId: string, previous: Hold | undefined) {
  await changeLedger(store, sku, orderId, (ledger) => ({ holds: restore(ledger.holds, orderId, previous) }));
}

/**
 * Books an order's lines, all or nothing: a flow (the kit's `runFlow`) with one step per product in
 * SKU order, "hold the units of <sku>" (undo: put the order's earlier hold back). Once one line is
 * short the later steps only read, so every short line is reported; "refuse the short lines" then
 * stops the flow and the lines held so far are undone. A change of an existing order ends with
 * "release products the order no longer names" (no undo: the order's new lines stand). A crash
 * between steps leaves unconfirmed holds: the sweeper reconciles them with the order (or removes
 * them if the order was never written).
 */
export async function bookOrder(
  store: BookingStore,
  orderId: string,
  requests: readonly LineRequest[],
  opts: BookingOptions,
): Promise<{ booked: true; overbooked: ShortLine[] } | { short: ShortLine[] }> {
  const short: ShortLine[] = [];
  // Lines booked beyond what is free (staff's sub-rental): the order records them.
  const overbooked: ShortLine[] = [];
  const holdLine = (line: LineRequest) =>
    flowStep(
      `hold the units of ${line.sku}`,
      async (): Promise<{ previous: Hold | undefined } | undefined> => {
        const owned = line.owned ?? (await store.owned(line.sku));
        if (short.length > 0) {
          // Already refused: only find out whether this line is short too.
          const ledger = await readLedger(store.ledgers, line.sku);
          const outcome = rebook(ledger.holds, owned, orderId, line, opts);
          if ('short' in outcome) short.push(outcome.short);
          return undefined;
        }
        let beyond: ShortLine | undefined;
        const outcome = await changeLedger(store, line.sku, orderId, (ledger) => {
          // Run again on a fresh read when another write came first: the last run is the one written.
          const next = rebook(ledger.holds, owned, orderId, line, opts);
          beyond = 'holds' in next ? next.overbooked : undefined;
          return next;
        });
        if ('short' in outcome) {
          short.push(outcome.short);
          return undefined;
        }
        if (beyond) overbooked.push(beyond);
        return { previous: outcome.previous };
      },
      async (_, held) => {
        if (held) await undoHold(store, line.sku, orderId, held.previous);
      },
    );
  const refused = await runFlow<undefined, ShortLine[]>(
    'book an order',
    undefined,
    [
      ...requests.map(holdLine),
      { name: 'refuse the short lines', run: async () => short.length > 0 && stop(short) },
      !opts.fresh && {
        name: 'release products the order no longer names',
        run: async () => {
          const kept = new Set(requests.map((r) => r.sku));
          for (const sku of await ledgersHolding(store, orderId)) {
            if (!kept.has(sku)) await undoHold(store, sku, orderId, undefined);
          }
        },
      },
    ],
    store.log,
  );
  return refused ? { short: refused } : { booked: true, overbooked };
}

/** The SKUs on which `orderId` holds units. */
async function ledgersHolding(store: BookingStore, orderId: string): Promise<string[]> {
  const ledgers = await store.ledgers.find({ 'holds.orderId': orderId }, { _id: 1 }).lean();
  return ledgers.map((l) => l._id);
}

/** Releases every hold of an order (Voided, or an order that was never written). */
export async function releaseOrder(store: BookingStore, orderId: string): Promise<void> {
  for (const sku of await ledgersHolding(store, orderId)) await undoHold(store, sku, orderId, undefined);
}

/** Marks `orderId`'s holds unconfirmed (its order is about to change): the sweeper settles them if the change never lands. */
export async function markUnconfirmed(store: BookingStore, orderId: string, now = new Date()): Promise<void> {
  for (const sku of await ledgersHolding(store, orderId)) {
    await changeLedger(store, sku, orderId, (ledger) => ({
      holds: ledger.holds.map((h) => (h.orderId === orderId ? { ...h, unconfirmed: true, heldAt: now } : h)),
    }));
  }
}

/**
 * Sets `orderId`'s hold on `sku` to what its order as stored asks (`request`, or nothing), confirmed.
 * The stored order is the truth: it keeps its units even beyond what is free (then marked overbooked,
 * for the conflicts list), since it was accepted.
 */
export async function settleHold(
  store: BookingStore,
  sku: string,
  orderId: string,
  request: LineRequest | undefined,
  now = new Date(),
): Promise<void> {
  const owned = await store.owned(sku);
  await changeLedger(store, sku, orderId, (ledger) => {
    if (!request) return { holds: restore(ledger.holds, orderId, undefined) };
    return { holds: confirmHold(ledger.holds, owned, orderId, request, now) };
  });
}

/** Unconfirmed holds written before `cutoff`: the sweeper's work list. */
export async function staleUnconfirmedHolds(
  store: BookingStore,
  cutoff: Date,
  limit = 500,
): Promise<{ sku: string; orderId: string }[]> {
  const ledgers = await store.ledgers.find({ 'holds.unconfirmed': true }, { holds: 1 }).limit(limit).lean();
  return ledgers.flatMap((l) =>
    l.holds
      .filter((h) => h.unconfirmed && h.heldAt < cutoff)
      .map((h) => ({ sku: l._id, orderId: h.orderId })),
  );
}

/**
 * Holds that ended before `day` no longer matter to any booking: dropped, so a ledger carries only
 * what is ahead. The version moves too, so a guarded write computed meanwhile reads again and
 * readers refresh their copy.
 */
export async function dropPastHolds(store: BookingStore, day: string): Promise<number> {
  const res = await store.ledgers.updateMany(
    { 'holds.last': { $lt: day } },
    { $pull: { holds: { last: { $lt: day } } }, $inc: { version: 1 } },
  );
  return res.modifiedCount;
}
