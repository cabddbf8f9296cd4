import { type ShortLine, type ShortLinesRefusal, shortLineText } from '@decor/contracts';
import type { OrderContext } from '../context';
import {
  type BookableOrder,
  bookingIdOf,
  type LineRequest,
  type ProductBuffers,
  requestsForOrder,
} from '../domain/bookings';
import { type BookingStore, bookOrder, markUnconfirmed, releaseOrder } from './bookings';

/**
 * Bookings as the order's writes use them: what an order should hold is derived from the order
 * (domain/bookings.ts) with the products' and categories' buffers from this service's copies.
 */

/** A booking refused: the short lines, and the message naming the first of them. */
export class ShortLinesError extends Error {
  constructor(readonly shortLines: ShortLine[]) {
    const first = shortLines[0];
    super(first ? shortLineText(first.available, first.name, first.day) : 'Some products are not available');
    this.name = 'ShortLinesError';
  }
}

/** The 409 body of a refused booking. */
export const shortLinesAnswer = (err: ShortLinesError): ShortLinesRefusal => ({
  message: err.message,
  shortLines: err.shortLines,
});

export function bookingStore(ctx: OrderContext): BookingStore {
  return {
    ledgers: ctx.ledgers,
    batches: ctx.ledgerBatches,
    log: ctx.log,
    owned: async (sku) => {
      const owned = async () => (await ctx.products.findById(sku, { quantity: 1 }).lean())?.quantity;
      // A product created a moment ago may still be on its way from the catalogue: wait for it once.
      return (await owned()) ?? ((await ctx.catchUp('products')) ? await owned() : undefined) ?? 0;
    },
  };
}

type BuffersLookup = (sku: string) => ProductBuffers;

/** Reads in flight, per service instance, by the set of SKUs asked. */
const readsInFlight = new WeakMap<OrderContext, Map<string, Promise<BuffersLookup>>>();

/**
 * The buffers of these products (their own, their category's), from the catalogue's events. Callers
 * asking for the same products at the same time share one read: a burst of submissions for one
 * product (the race for the last units) otherwise reads it, and its category, once per request.
 */
export function buffersOf(ctx: OrderContext, skus: readonly string[]): Promise<BuffersLookup> {
  const reads = readsInFlight.get(ctx) ?? new Map<string, Promise<BuffersLookup>>();
  readsInFlight.set(ctx, reads);
  const key = [...new Set(skus)].sort().join('\n');
  const running = reads.get(key);
  if (running) return running;
  const read = readBuffers(ctx, skus).finally(() => reads.delete(key));
  reads.set(key, read);
  return read;
}

async function readBuffers(ctx: OrderContext, skus: readonly string[]): Promise<BuffersLookup> {
  const products = await ctx.products
    .find({ _id: { $in: skus } }, { category: 1, turnaround: 1, quantity: 1 })
    .lean();
  const names = [...new Set(products.map((p) => p.category).filter((c): c is string => !!c))];
  const categories = await ctx.categories.find({ name: { $in: names }, parentId: null }).lean();
  const byName = new Map(categories.map((c) => [c.name, c.turnaround]));
  const bySku = new Map(products.map((p) => [p._id, p]));
  return (sku) => {
    const product = bySku.get(sku);
    return {
      product: product?.turnaround,
      category: product?.category ? byName.get(product.category) : null,
      // Read here already: booking need not read each product again (unknown yet: it waits for it).
      owned: product?.quantity,
    };
  };
}

/** What `order` should hold today. */
export async function requestsFor(ctx: OrderContext, order: BookableOrder): Promise<LineRequest[]> {
  const lookup = await buffersOf(
    ctx,
    order.lines.map((l) => l.productId),
  );
  return requestsForOrder(order, lookup, ctx.shop, ctx.today());
}

const sameRequests = (a: readonly LineRequest[], b: readonly LineRequest[]) =>
  JSON.stringify(a) === JSON.stringify(b);

/** What to do once the order's write is in: nothing, or release what it no longer holds. */
export type AfterWrite = () => Promise<void>;

/** A booked change: the step to run after the order's write, and the lines booked beyond what is free. */
export interface BookedChange {
  afterWrite: AfterWrite;
  /** Staff's sub-rental: lines short of free units, booked anyway on their confirmation. */
  overbooked: ShortLine[];
}

const NOTHING_AFTER: AfterWrite = async () => {};

/**
 * Step "book what the changed order will hold", before its write, so the caller answers a definite
 * yes or no: books the new requests (throws ShortLinesError, nothing booked, when short), or when the
 * order stops holding, marks its holds unconfirmed and hands back the release to run after the
 * write. Undo (a write that then fails): none needed here — the holds are unconfirmed and the
 * sweeper puts them back in line with the order as stored.
 */
export async function bookChange(
  ctx: OrderContext,
  before: BookableOrder | null,
  after: BookableOrder,
  opts: { overbook?: boolean } = {},
): Promise<BookedChange> {
  const [was, will] = await Promise.all([before ? requestsFor(ctx, before) : [], requestsFor(ctx, after)]);
  if (before && sameRequests(was, will)) return { afterWrite: NOTHING_AFTER, overbooked: [] };
  const store = bookingStore(ctx);
  const id = bookingIdOf(after);
  if (will.length === 0) {
    await markUnconfirmed(store, id);
    return { afterWrite: () => releaseOrder(store, id), overbooked: [] };
  }
  const outcome = await bookOrder(store, id, will, {
    now: new Date(),
    overbook: opts.overbook,
    fresh: !before,
  });
  if ('short' in outcome) throw new ShortLinesError(outcome.short);
  return { afterWrite: NOTHING_AFTER, overbooked: outcome.overbooked };
}
