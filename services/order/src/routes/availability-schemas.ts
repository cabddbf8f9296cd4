import { SubRental } from '@decor/contracts';
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

const Hint = Type.Union([
  Type.Literal('Available'),
  Type.Literal('Only a few left'),
  Type.Literal('Not available'),
]);

export const AvailabilityResult = Type.Object({
  result: Type.Array(
    Type.Object({
      id: Type.String(),
      hint: Hint,
      available: Type.Optional(
        Type.Integer({ description: 'Signed-in only: units free on the tightest day' }),
      ),
      day: Type.Optional(Type.String({ description: 'Signed-in only: the tightest day of the window' })),
    }),
  ),
});

export const CalendarQuery = Type.Object(
  {
    month: Type.String({ maxLength: 7, description: 'YYYY-MM' }),
    category: Type.Optional(Type.String({ maxLength: 200, description: "A category's name" })),
  },
  { additionalProperties: false },
);

export const CalendarResult = Type.Object({
  result: Type.Object({
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
  }),
});

export const DayHoldsQuery = Type.Object({ id: Sku, day: Day }, { additionalProperties: false });

const HoldingOrder = {
  orderId: Type.String({ description: 'The booking: its estimate id' }),
  DocNumber: Type.Union([Type.String(), Type.Null()]),
  qty: Type.Integer(),
  overbooked: Type.Boolean(),
  subRental: Type.Union([SubRental, Type.Null()]),
};

export const DayHoldsResult = Type.Object({
  result: Type.Array(Type.Object({ ...HoldingOrder, first: Type.String(), last: Type.String() })),
});

export const ConflictsResult = Type.Object({
  result: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      owned: Type.Integer(),
      first: Type.String(),
      last: Type.String(),
      peak: Type.Integer(),
      orders: Type.Array(Type.Object(HoldingOrder)),
    }),
  ),
});
