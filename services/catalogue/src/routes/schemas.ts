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
});

export const TruckingView = Type.Object({
  id: Type.String(),
  value: Type.Number({ description: 'Dollars' }),
});
