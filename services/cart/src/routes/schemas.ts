import { CartView } from '@decor/contracts';
import { objectId } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import { SKU_PATTERN } from '../domain/cart';

/** A cart id or line id: 24 hex digits; anything else is a 400 'Invalid <field>' before any lookup. */
export const CartIdParam = Type.Object(
  { id: objectId({ description: 'Cart id' }) },
  { additionalProperties: false },
);
export const LineIdParam = Type.Object(
  { id: objectId({ description: 'CartProductId: the line id' }) },
  { additionalProperties: false },
);
export const Sku = Type.String({ pattern: SKU_PATTERN, 'x-message': 'Invalid {field}' });

export const NoQuery = Type.Object({}, { additionalProperties: false });

/** Sent by the spec's client with every line save; never used (the catalogue price is). */
export const IgnoredPrice = Type.Optional(
  Type.Union([Type.Number(), Type.String(), Type.Null()], {
    description: "Ignored: a line always takes the catalogue's current price",
  }),
);

export const Qty = Type.Number({
  description: 'The quantity to set: a whole number from 1 to the current stock',
});

export const OneCart = Type.Object({ result: CartView });
export const CartRows = Type.Object({ result: Type.Array(CartView) });
