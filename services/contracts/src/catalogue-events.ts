import { Type } from '@sinclair/typebox';
import { MAX_TURNAROUND_DAYS } from './availability';
import { defineEvent } from './envelope';

/**
 * A product's or category's own turnaround buffer (issue 15), whole days before and after a booking;
 * a side left out inherits (product → its category → the shop's default, `turnaroundFor`).
 */
export const TurnaroundOverride = Type.Object({
  before: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TURNAROUND_DAYS })),
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TURNAROUND_DAYS })),
});

const ProductImage = Type.Object({
  id: Type.String(),
  url: Type.String(),
  primary: Type.Boolean(),
  type: Type.String(),
});

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
    /** The product's QuickBooks item id, once it has one (estimate lines refer to it). */
    qboId: Type.Optional(Type.String()),
    /** Its own turnaround buffer, where staff set one (absent sides inherit). */
    turnaround: Type.Optional(TurnaroundOverride),
  }),
);

export const ProductDeleted = defineEvent(
  'ProductDeleted',
  1,
  'catalogue',
  Type.Object({ sku: Type.String() }),
);

/** The trucking fee an admin set (spec: added to every estimate, taxed). */
export const TruckingFeeChanged = defineEvent(
  'TruckingFeeChanged',
  1,
  'catalogue',
  Type.Object({ id: Type.String(), valueCents: Type.Integer({ minimum: 0 }) }),
);

/**
 * A category or subcategory was created or renamed (spec: categories carry QuickBooks-style string
 * ids; a subcategory names its parent category's id). Consumers keep their own copy of the tree.
 */
export const CategoryUpserted = defineEvent(
  'CategoryUpserted',
  1,
  'catalogue',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    /** The parent category's id for a subcategory; absent for a top-level category. */
    parentId: Type.Optional(Type.String()),
    /** The category's turnaround buffer for its products, where staff set one (absent sides inherit). */
    turnaround: Type.Optional(TurnaroundOverride),
  }),
);
