import { Type } from '@sinclair/typebox';
import { defineEvent } from './envelope';

const ProductImage = Type.Object({ id: Type.String(), url: Type.String(), primary: Type.Boolean(), type: Type.String() });

/** A product was created or changed: its whole current state (consumers keep their own copy). */
export const ProductUpserted = defineEvent(
  'ProductUpserted',
  1,
  'catalogue',
  Type.Object({
    sku: Type.String(),
    name: Type.String(),
    description: Type.String(),
    priceCents: Type.Integer({ minimum: 0 }),
    quantity: Type.Integer({ minimum: 0 }),
    category: Type.String(),
    subcategory: Type.String(),
    images: Type.Array(ProductImage),
  }),
);

export const ProductDeleted = defineEvent('ProductDeleted', 1, 'catalogue', Type.Object({ sku: Type.String() }));

/** The trucking fee an admin set (spec: added to every estimate, taxed). */
export const TruckingFeeChanged = defineEvent(
  'TruckingFeeChanged',
  1,
  'catalogue',
  Type.Object({ id: Type.String(), valueCents: Type.Integer({ minimum: 0 }) }),
);
