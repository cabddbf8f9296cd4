/**
 * The availability answers (issue 15) as JSON schemas (the order service validates and documents its
 * `/availability` routes with them) and their types, which browsers import as types only
 * (`availability.ts`). The routes wrap each in `{ result }`.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ShortLine, SubRental } from './views';

/** What a visitor (no numbers) is told about a product for a date. */
export const AvailabilityHint = Type.Union([
  Type.Literal('Available'),
  Type.Literal('Only a few left'),
  Type.Literal('Not available'),
]);
export type AvailabilityHint = Static<typeof AvailabilityHint>;

/** GET /availability: one product's answer for a date check (numbers for signed-in users only). */
export const ProductAvailability = Type.Object({
  id: Type.String(),
  hint: AvailabilityHint,
  available: Type.Optional(Type.Integer({ description: 'Signed-in only: units free on the tightest day' })),
  day: Type.Optional(Type.String({ description: 'Signed-in only: the tightest day of the window' })),
});
export type ProductAvailability = Static<typeof ProductAvailability>;

/** GET /availability/calendar (staff): units booked per day of a month, per product. */
export const AvailabilityCalendar = Type.Object({
  first: Type.String(),
  last: Type.String(),
  products: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      category: Type.String(),
      owned: Type.Integer(),
      booked: Type.Array(Type.Integer(), { description: 'Units booked on each day from first to last' }),
    }),
  ),
});
export type AvailabilityCalendar = Static<typeof AvailabilityCalendar>;

/** An order holding a product (in a conflict, and on a day: `DayHold`). */
export const HoldingOrder = Type.Object({
  orderId: Type.String({ description: 'The booking: its estimate id' }),
  DocNumber: Type.Union([Type.String(), Type.Null()]),
  qty: Type.Integer(),
  overbooked: Type.Boolean(),
  /** The order's recorded sub-rental confirmation, when staff overbooked it on purpose. */
  subRental: Type.Union([SubRental, Type.Null()]),
});
export type HoldingOrder = Static<typeof HoldingOrder>;

/** GET /availability/holds (staff): an order holding a product on a day, with the days it holds it. */
export const DayHold = Type.Object({ ...HoldingOrder.properties, first: Type.String(), last: Type.String() });
export type DayHold = Static<typeof DayHold>;

/** GET /availability/conflicts (staff): a run of days booked beyond what the shop owns. */
export const AvailabilityConflict = Type.Object({
  id: Type.String(),
  name: Type.String(),
  owned: Type.Integer(),
  first: Type.String(),
  last: Type.String(),
  peak: Type.Integer(),
  orders: Type.Array(HoldingOrder),
});
export type AvailabilityConflict = Static<typeof AvailabilityConflict>;

/**
 * A 409 of submitting, editing or invoicing an order: the sentence, and for a booking that does not
 * fit every short line (the first one's text is the message).
 */
export const ShortLinesRefusal = Type.Object({
  message: Type.String(),
  shortLines: Type.Optional(
    Type.Array(ShortLine, {
      description: 'Present when the refusal is a booking that does not fit: every short line',
    }),
  ),
});
export type ShortLinesRefusal = Static<typeof ShortLinesRefusal>;
