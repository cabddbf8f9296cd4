import { MAX_TURNAROUND_DAYS } from '@decor/contracts';
import { Type } from '@sinclair/typebox';
import { SKU_PATTERN } from '../domain/product';

/** A product id (SKU) in a URL; a malformed one is a 400 'Invalid id' before any lookup. */
export const Sku = Type.String({ pattern: SKU_PATTERN, 'x-message': 'Invalid {field}' });
export const SkuParam = Type.Object({ id: Sku }, { additionalProperties: false });

/** Routes that take no query parameters refuse unknown ones like every other input. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const ImageView = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'Public URL of the image file' }),
  primary: Type.Boolean(),
  type: Type.String({ description: 'Content type, e.g. image/svg+xml' }),
});

export const ProductView = Type.Object({
  id: Type.String({ description: 'The SKU' }),
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  subcategory: Type.String(),
  Images: Type.Array(ImageView, { description: 'Primary image first' }),
  price: Type.Optional(Type.Number({ description: 'Dollars, two decimals; signed-in users only' })),
  quantity: Type.Optional(Type.Integer({ description: 'Stock; signed-in users only' })),
  qboId: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Staff only' })),
  syncToken: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Staff only' })),
  turnaroundBefore: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: "Staff only: the product's own turnaround days before a booking; null inherits",
    }),
  ),
  turnaroundAfter: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: "Staff only: the product's own turnaround days after a booking; null inherits",
    }),
  ),
});

export const TruckingView = Type.Object({
  id: Type.String(),
  value: Type.Number({ description: 'Dollars' }),
});

const NumberOrText = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 32 })], { description });

/** One side of a turnaround buffer as a form sends it: empty text or null inherits. */
export const TurnaroundDays = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 32 }), Type.Null()], {
    description: `${description}: whole days 0 to ${MAX_TURNAROUND_DAYS}; empty or null inherits`,
  });

/**
 * Spec §3 "New product" form (without the files, which are uploaded apart). Every field is optional
 * here so that a missing one gets the form's message ('Name: This field is required'), not a schema's.
 */
export const ProductInputSchema = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'The SKU',
        pattern: `^$|${SKU_PATTERN}`,
        'x-message':
          'SKU may hold letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit',
      }),
    ),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    category: Type.Optional(Type.String({ maxLength: 200, description: "Category name or '{id}__{name}'" })),
    subcategory: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "Subcategory name or '{id}__{name}'; must belong to the category",
      }),
    ),
    price: Type.Optional(NumberOrText('Dollars, rounded to the cent; 0 or more')),
    quantity: Type.Optional(NumberOrText('Stock, a whole number; 0 or more')),
    turnaroundBefore: Type.Optional(TurnaroundDays("Days kept free before a booking (else the category's)")),
    turnaroundAfter: Type.Optional(TurnaroundDays("Days kept free after a booking (else the category's)")),
  },
  { additionalProperties: false },
);
