import {
  availabilityHint,
  availableFor,
  bookedPerDay,
  bookingWindow,
  dayNumber,
  isCalendarDay,
  monthDays,
  turnaroundFor,
} from '@decor/contracts';
import { badRequest, currentUser, type ServiceApp } from '@decor/kit';
import type { OrderContext } from '../context';
import { conflictsOf } from '../domain/conflicts';
import { bookingsOf, calendarProducts, namedUnits, ownedUnits } from '../store/availability-reads';
import { LedgerReader } from '../store/ledger-reads';
import { buffersOf } from '../store/order-bookings';
import {
  AvailabilityQuery,
  AvailabilityResult,
  CalendarQuery,
  CalendarResult,
  ConflictsResult,
  DayHoldsQuery,
  DayHoldsResult,
} from './availability-schemas';

/** The longest range a date check may span (a season, not a year). */
const MAX_RANGE_DAYS = 62;

/** A date check's days: `from`, through `to` when given; 400 with a message when not a sensible range. */
function checkedRange(from: string, to: string | undefined) {
  const last = to ?? from;
  if (!isCalendarDay(from)) throw badRequest('from must be a date (YYYY-MM-DD)');
  if (!isCalendarDay(last)) throw badRequest('to must be a date (YYYY-MM-DD)');
  const span = dayNumber(last) - dayNumber(from);
  if (span < 0) throw badRequest('to must not be before from');
  if (span >= MAX_RANGE_DAYS) throw badRequest(`A date check spans at most ${MAX_RANGE_DAYS} days`);
  return { first: from, last };
}

/**
 * Availability by date (issue 15). Public: a visitor learns only 'Available' / 'Only a few left' /
 * 'Not available', a signed-in user the number; staff also get the month calendar, who holds a day,
 * and the conflicts (days booked beyond what the shop owns).
 */
export async function availabilityRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  const reader = new LedgerReader(ctx.ledgers);

  app.get(
    '/availability',
    {
      onRequest: app.optionalAuth,
      schema: {
        summary: 'How many units of these products are free for an event on these days (buffers included)',
        querystring: AvailabilityQuery,
        response: { 200: AvailabilityResult },
      },
    },
    async (request) => {
      const { from, to, id } = request.query;
      const range = checkedRange(from, to);
      const skus = [...new Set(Array.isArray(id) ? id : [id])];
      const [products, holds, buffers] = await Promise.all([
        ownedUnits(ctx, skus),
        reader.holdsOf(skus),
        buffersOf(ctx, skus),
      ]);
      const withNumbers = currentUser(request) !== null;
      return {
        result: products.map((p) => {
          const { product, category } = buffers(p._id);
          const window = bookingWindow(
            { eventDate: range.first, willCallReturnDate: range.last },
            turnaroundFor(ctx.shop.turnaround, category, product),
          );
          const { available, day } = window
            ? availableFor(p.quantity, holds.get(p._id) ?? [], window, range.first)
            : { available: p.quantity, day: range.first };
          const hint = availabilityHint(available, p.quantity);
          return withNumbers ? { id: p._id, hint, available, day } : { id: p._id, hint };
        }),
      };
    },
  );

  app.get(
    '/availability/calendar',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary: 'Staff: units booked per day of a month for each product (of a category), with units owned',
        security: [{ session: [] }],
        querystring: CalendarQuery,
        response: { 200: CalendarResult },
      },
    },
    async (request) => {
      const { month, category } = request.query;
      const days = monthDays(month);
      if (!days) throw badRequest('month must be a month (YYYY-MM)');
      const { first, last } = days;
      const products = await calendarProducts(ctx, category);
      const holds = await reader.holdsOf(products.map((p) => p._id));
      return {
        result: {
          first,
          last,
          products: products.map((p) => ({
            id: p._id,
            name: p.name,
            category: p.category ?? '',
            owned: p.quantity,
            booked: bookedPerDay(holds.get(p._id) ?? [], { first, last }),
          })),
        },
      };
    },
  );

  app.get(
    '/availability/holds',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary: 'Staff: the orders that hold a product on a day',
        security: [{ session: [] }],
        querystring: DayHoldsQuery,
        response: { 200: DayHoldsResult },
      },
    },
    async (request) => {
      const { id, day } = request.query;
      if (!isCalendarDay(day)) throw badRequest('day must be a date (YYYY-MM-DD)');
      const holds = ((await reader.holdsOf([id])).get(id) ?? []).filter(
        (h) => h.first <= day && day <= h.last,
      );
      const bookings = await bookingsOf(
        ctx,
        holds.map((h) => h.orderId),
      );
      return {
        result: holds.map((h) => ({
          orderId: h.orderId,
          DocNumber: bookings.get(h.orderId)?.DocNumber ?? null,
          subRental: bookings.get(h.orderId)?.subRental ?? null,
          qty: h.qty,
          first: h.first,
          last: h.last,
          overbooked: h.overbooked,
        })),
      };
    },
  );

  app.get(
    '/availability/conflicts',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary: 'Staff: runs of days, from today, where a product is booked beyond the units the shop owns',
        security: [{ session: [] }],
        response: { 200: ConflictsResult },
      },
    },
    async () => {
      const ledgers = await reader.all();
      const products = await namedUnits(
        ctx,
        ledgers.map((l) => l.sku),
      );
      const owned = new Map(products.map((p) => [p._id, p]));
      const conflicts = conflictsOf(
        ledgers.map((l) => ({
          ...l,
          name: owned.get(l.sku)?.name ?? l.sku,
          owned: owned.get(l.sku)?.quantity ?? 0,
        })),
        ctx.today(),
      );
      const bookings = await bookingsOf(
        ctx,
        conflicts.flatMap((c) => c.orders.map((o) => o.orderId)),
      );
      return {
        result: conflicts.map((c) => ({
          ...c,
          orders: c.orders.map((o) => ({
            ...o,
            DocNumber: bookings.get(o.orderId)?.DocNumber ?? null,
            subRental: bookings.get(o.orderId)?.subRental ?? null,
          })),
        })),
      };
    },
  );
}
