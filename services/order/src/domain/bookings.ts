import {
  availableFor,
  type Booking,
  bookingWindow,
  type DayRange,
  type HoldingPolicy,
  holdsStock,
  type OrderDates,
  type OrderStatus,
  type ShortLine,
  type TurnaroundBuffer,
  turnaroundFor,
} from '@decor/contracts';

/**
 * Bookings (issue 15): each product has one ledger of the holds orders place on it. The order is the
 * truth; a hold is what one order books of one product. Pure: the store reads a ledger, asks these
 * rules for the next holds, and writes them back guarded by the ledger's version.
 */

/** One order's units of one product over its window. */
export interface Hold extends Booking {
  orderId: string;
  /** Written before the order was (or while it changed): the sweeper reconciles it with the order. */
  unconfirmed: boolean;
  heldAt: Date;
  /** Staff booked it beyond what the shop owns (a sub-rental), on purpose and recorded. */
  overbooked: boolean;
}

/** What an order asks of one product. */
export interface LineRequest {
  sku: string;
  name: string;
  qty: number;
  window: DayRange;
  /** The event's day: a short line names it when it is one of the tightest days. */
  focus?: string;
  /** The units the shop owns, when already read with the product's buffers. */
  owned?: number;
}

export interface BookingOptions {
  /** Staff only: book even when short (the hold is marked `overbooked`). */
  overbook?: boolean;
  /** A new order: it holds nothing yet, so there is nothing of it to release elsewhere. */
  fresh?: boolean;
  now: Date;
}

/** The holds of everyone but `orderId` (an order's own earlier hold never competes with its new one). */
export const othersHolds = (holds: readonly Hold[], orderId: string) =>
  holds.filter((h) => h.orderId !== orderId);

/**
 * The product's holds once `orderId` books `line` on it (its earlier hold replaced), or the short
 * line when fewer units than asked are free on the window's tightest day.
 */
export function rebook(
  holds: readonly Hold[],
  owned: number,
  orderId: string,
  line: LineRequest,
  opts: BookingOptions,
): { holds: Hold[]; overbooked?: ShortLine } | { short: ShortLine } {
  const others = othersHolds(holds, orderId);
  const { available, day } = availableFor(owned, others, line.window, line.focus);
  const short = available < line.qty;
  const shortLine = { productId: line.sku, name: line.name, requested: line.qty, available, day };
  if (short && !opts.overbook) return { short: shortLine };
  const hold: Hold = {
    orderId,
    qty: line.qty,
    first: line.window.first,
    last: line.window.last,
    unconfirmed: true,
    heldAt: opts.now,
    overbooked: short,
  };
  return { holds: [...others, hold], ...(short ? { overbooked: shortLine } : {}) };
}

/**
 * The product's holds once the sweeper confirms `orderId`'s to what its stored order asks. A hold that
 * already is what the order asks is confirmed as it stands: whether it was a sub-rental was decided
 * when it was booked, and orders booked since must not turn it into one. Any other is set to the
 * request, kept even beyond the free units (the order was accepted), then marked overbooked.
 */
export function confirmHold(
  holds: readonly Hold[],
  owned: number,
  orderId: string,
  request: LineRequest,
  now: Date,
): Hold[] {
  const current = holds.find((h) => h.orderId === orderId);
  const asked =
    current?.qty === request.qty &&
    current.first === request.window.first &&
    current.last === request.window.last;
  const outcome = asked ? { holds } : rebook(holds, owned, orderId, request, { now, overbook: true });
  const next = 'holds' in outcome ? outcome.holds : holds; // (short cannot happen with overbook)
  return next.map((h) => (h.orderId === orderId ? { ...h, unconfirmed: false } : h));
}

/** The product's holds with `orderId`'s put back as it was before (`previous`), or removed. */
export function restore(holds: readonly Hold[], orderId: string, previous: Hold | undefined): Hold[] {
  const others = othersHolds(holds, orderId);
  return previous ? [...others, previous] : others;
}

/** An order's lines as requests, one per product (an order naming a product twice books the sum). */
export function requestsOf(
  lines: readonly { sku: string; name: string; qty: number }[],
  windowOf: (sku: string) => DayRange,
): LineRequest[] {
  const bySku = new Map<string, LineRequest>();
  for (const line of lines) {
    const earlier = bySku.get(line.sku);
    if (earlier) earlier.qty += line.qty;
    else bySku.set(line.sku, { sku: line.sku, name: line.name, qty: line.qty, window: windowOf(line.sku) });
  }
  // A fixed order (by SKU) so two orders booking the same products never wait on each other crosswise.
  return [...bySku.values()].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
}

/** What a product contributes to its window: its own buffer and its category's. */
export interface ProductBuffers {
  product?: Partial<TurnaroundBuffer> | null;
  category?: Partial<TurnaroundBuffer> | null;
  /** The units the shop owns (undefined: the product is not known here yet). */
  owned?: number;
}

/** An order as bookings see it (estimate or invoice). */
export interface BookableOrder {
  orderType: 'estimate' | 'invoice';
  id: string;
  estimateId: string | null;
  status: string;
  details: OrderDates;
  lines: readonly { productId: string; name: string; qty: number }[];
  /** The revision of the last edit of details or lines (estimates; 0 or absent: never edited). */
  editedRevision?: number;
  /**
   * Issue 30: the estimate's offer ended unaccepted at this edit (its `editedRevision` then) and its
   * holds were released; null or absent: not lapsed.
   */
  offerLapsedAtEdit?: number | null;
}

/**
 * An Open estimate whose offer lapsed unaccepted holds nothing until staff extend it. An edit since
 * (its editedRevision moved) books it again like any edit, and a status change (invoiced, voided)
 * decides by the status as ever: the lapse only ever concerns the content that was offered.
 */
export const offerLapsed = (
  order: Pick<BookableOrder, 'orderType' | 'status' | 'editedRevision' | 'offerLapsedAtEdit'>,
): boolean =>
  order.orderType === 'estimate' &&
  order.status === 'Open' &&
  order.offerLapsedAtEdit !== null &&
  order.offerLapsedAtEdit !== undefined &&
  order.offerLapsedAtEdit === (order.editedRevision ?? 0);

/** One order is one booking, whatever its document: an invoice books under its estimate's id. */
export const bookingIdOf = (order: Pick<BookableOrder, 'id' | 'estimateId'>) => order.estimateId ?? order.id;

/**
 * What the order should hold now: one request per product over that product's window, or none (not
 * holding: Voided, a policy-free Pending request, a Completed order past its days, no event date, an
 * estimate whose offer lapsed).
 */
export function requestsForOrder(
  order: BookableOrder,
  buffersOf: (sku: string) => ProductBuffers,
  shop: { turnaround: TurnaroundBuffer; holding: HoldingPolicy },
  today: string,
): LineRequest[] {
  const windowOf = (sku: string) => {
    const { product, category } = buffersOf(sku);
    return bookingWindow(order.details, turnaroundFor(shop.turnaround, category, product));
  };
  const eventWindow = windowOf('');
  if (!eventWindow || offerLapsed(order)) return [];
  const status = order.status as OrderStatus;
  if (!holdsStock({ status, orderType: order.orderType }, eventWindow, today, shop.holding)) return [];
  const lines = order.lines.map((l) => ({ sku: l.productId, name: l.name, qty: l.qty }));
  const focus = order.details.eventDate ?? undefined;
  return requestsOf(lines, (sku) => windowOf(sku) ?? eventWindow).map((r) => ({
    ...r,
    focus,
    owned: buffersOf(r.sku).owned,
  }));
}
