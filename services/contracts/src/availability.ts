/**
 * Availability by date (issue 15): the rules every caller shares — the order's booking window, the
 * turnaround buffers, which orders hold stock, and the sweep line that turns bookings into units
 * booked per day. Pure and browser-safe: the owning service decides with them, the storefront,
 * checkout and staff calendar show what they say.
 */
import type { AvailabilityHint } from './availability-schemas';
import { addDays, dayFromNumber, dayNumber, isCalendarDay } from './calendar-day';
import type { OrderStatus } from './lifecycle';
import { formatLongDate } from './summary-format';
import type { SubRental } from './views';

/** The answers' shapes are JSON schemas (availability-schemas.ts), here as types for browsers. */
export type {
  AvailabilityCalendar,
  AvailabilityConflict,
  AvailabilityHint,
  DayHold,
  HoldingOrder,
  ProductAvailability,
  ShortLinesRefusal,
} from './availability-schemas';
/** A short line and a sub-rental: their shapes are views (views.ts), here as types for browsers. */
export type { ShortLine, SubRental } from './views';

/** Whole days kept free before and after a booking (cleaning, loading, trucking). */
export interface TurnaroundBuffer {
  before: number;
  after: number;
}

/** The shop-wide default: one day before the window, one after. */
export const DEFAULT_TURNAROUND: TurnaroundBuffer = { before: 1, after: 1 };

/** The most days a buffer may add on one side (a typo of 100 days would block a product for months). */
export const MAX_TURNAROUND_DAYS = 30;

/** A product's buffer: its own override, else its category's, else the shop's (each side apart). */
export function turnaroundFor(
  shop: TurnaroundBuffer,
  category?: Partial<TurnaroundBuffer> | null,
  product?: Partial<TurnaroundBuffer> | null,
): TurnaroundBuffer {
  return {
    before: product?.before ?? category?.before ?? shop.before,
    after: product?.after ?? category?.after ?? shop.after,
  };
}

/** An inclusive run of calendar days, first ≤ last. */
export interface DayRange {
  first: string;
  last: string;
}

/** The order fields that place it in time. */
export interface OrderDates {
  eventDate?: string | null;
  willCallPickupDate?: string | null;
  willCallReturnDate?: string | null;
}

/**
 * The days an order's lines are out of the shop: from the earliest of the event date and the
 * will-call pickup date to the latest of the event date and the will-call return date, widened by
 * the buffer. Undefined without a valid event date (such an order books nothing yet).
 */
export function bookingWindow(dates: OrderDates, buffer: TurnaroundBuffer): DayRange | undefined {
  if (!isCalendarDay(dates.eventDate)) return undefined;
  const days = [dates.eventDate, dates.willCallPickupDate, dates.willCallReturnDate].filter(isCalendarDay);
  const numbers = days.map(dayNumber);
  return {
    first: dayFromNumber(Math.min(...numbers) - buffer.before),
    last: dayFromNumber(Math.max(...numbers) + buffer.after),
  };
}

/** Whether two day ranges share at least one day. */
export function rangesOverlap(a: DayRange, b: DayRange): boolean {
  return a.first <= b.last && b.first <= a.last;
}

/** Shop setting: whether customers' Pending requests hold stock (default: they do). */
export interface HoldingPolicy {
  pendingHolds: boolean;
}

export const DEFAULT_HOLDING_POLICY: HoldingPolicy = { pendingHolds: true };

/**
 * Whether an order holds its lines' stock today. Open and Closed estimates and their invoices hold
 * it — an order is one booking, whatever its document; a customer's Pending request holds it by the
 * shop's policy (an invoice staff made Pending always does); Voided releases at once; a Completed
 * invoice releases once its window has passed.
 */
export function holdsStock(
  order: { status: OrderStatus; orderType?: 'estimate' | 'invoice' },
  window: DayRange,
  today: string,
  policy: HoldingPolicy = DEFAULT_HOLDING_POLICY,
): boolean {
  switch (order.status) {
    case 'Pending':
      return order.orderType === 'invoice' || policy.pendingHolds;
    case 'Open':
    case 'Closed':
      return true;
    case 'Completed':
      return today <= window.last;
    case 'Voided':
      return false;
  }
}

/** Units of one product booked over a window. */
export interface Booking extends DayRange {
  qty: number;
}

/** Units booked on each day of `range` (the sweep line: +qty where a booking starts, −qty after it ends). */
export function bookedPerDay(bookings: readonly Booking[], range: DayRange): number[] {
  const start = dayNumber(range.first);
  const length = dayNumber(range.last) - start + 1;
  if (length <= 0) return [];
  // delta[i]: units that start on day i of the range minus those that ended the day before.
  const delta = new Array<number>(length + 1).fill(0);
  const shift = (i: number, qty: number) => {
    delta[i] = (delta[i] ?? 0) + qty;
  };
  for (const b of bookings) {
    if (b.qty <= 0 || !rangesOverlap(b, range)) continue;
    shift(Math.max(dayNumber(b.first) - start, 0), b.qty);
    shift(Math.min(dayNumber(b.last) - start, length - 1) + 1, -b.qty);
  }
  const perDay: number[] = [];
  let running = 0;
  for (let i = 0; i < length; i++) {
    running += delta[i] ?? 0;
    perDay.push(running);
  }
  return perDay;
}

/**
 * The tightest day of a window: the most units booked on any of its days, and the day — `focus`
 * (the event's day) when it is one of the tightest, else the first of them.
 */
export function peakBooked(
  bookings: readonly Booking[],
  range: DayRange,
  focus?: string,
): { booked: number; day: string } {
  const perDay = bookedPerDay(bookings, range);
  let best = 0;
  for (let i = 1; i < perDay.length; i++) if ((perDay[i] ?? 0) > (perDay[best] ?? 0)) best = i;
  const booked = perDay[best] ?? 0;
  const focusIndex = focus ? dayNumber(focus) - dayNumber(range.first) : -1;
  if (focusIndex >= 0 && perDay[focusIndex] === booked) best = focusIndex;
  return { booked, day: addDays(range.first, best) };
}

/** Units free for the whole window: owned − the peak booked (never below 0), and the day that limits it. */
export function availableFor(
  owned: number,
  bookings: readonly Booking[],
  range: DayRange,
  focus?: string,
): { available: number; day: string } {
  const peak = peakBooked(bookings, range, focus);
  return { available: Math.max(owned - peak.booked, 0), day: peak.day };
}

/** A few: at most 3 units, or at most a tenth of what the shop owns. */
export function availabilityHint(available: number, owned: number): AvailabilityHint {
  if (available <= 0) return 'Not available';
  if (available <= Math.max(3, Math.floor(owned / 10))) return 'Only a few left';
  return 'Available';
}

/** What a customer is told on a product for a date: '12 available on Saturday, January 9th, 2027'. */
export function availableOnText(available: number, day: string): string {
  return `${available} available on ${formatLongDate(day)}`;
}

/** A short line: 'Only 12 Chiavari Chairs are available on Saturday, January 9th, 2027'. */
export function shortLineText(available: number, productName: string, day: string): string {
  return `Only ${available} ${productName} are available on ${formatLongDate(day)}`;
}

/** 'Sub-rental confirmed by ana@shop.com on Friday, November 27th, 2026' (the day where it is read). */
export function subRentalText(subRental: Pick<SubRental, 'by' | 'at'>): string {
  const at = new Date(subRental.at);
  const day = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  return `Sub-rental confirmed by ${subRental.by} on ${formatLongDate(day)}`;
}
