import { AvailabilityCalendar, AvailabilityConflict, DayHold, ProductAvailability } from '@decor/contracts';
import { Type } from '@sinclair/typebox';

const Day = Type.String({ maxLength: 10, description: 'A calendar day, YYYY-MM-DD' });
const Sku = Type.String({ minLength: 1, maxLength: 100, description: 'A product id (SKU)' });

export const AvailabilityQuery = Type.Object(
  {
    from: Day,
    to: Type.Optional(Day),
    id: Type.Union([Sku, Type.Array(Sku, { minItems: 1, maxItems: 100 })], {
      description: 'The products (repeat id= for several, at most 100)',
    }),
  },
  { additionalProperties: false },
);

/** The answers are contracts' (availability-schemas.ts); each route wraps its answer in `result`. */
export const AvailabilityResult = Type.Object({ result: Type.Array(ProductAvailability) });

export const CalendarQuery = Type.Object(
  {
    month: Type.String({ maxLength: 7, description: 'YYYY-MM' }),
    category: Type.Optional(Type.String({ maxLength: 200, description: "A category's name" })),
  },
  { additionalProperties: false },
);

export const CalendarResult = Type.Object({ result: AvailabilityCalendar });

export const DayHoldsQuery = Type.Object({ id: Sku, day: Day }, { additionalProperties: false });

export const DayHoldsResult = Type.Object({ result: Type.Array(DayHold) });

export const ConflictsResult = Type.Object({ result: Type.Array(AvailabilityConflict) });
