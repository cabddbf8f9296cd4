import { type Static, Type } from '@sinclair/typebox';
import { defineEvent } from './envelope';

/**
 * Events of a customer's carts (cart service). All carts of one customer are ONE aggregate keyed by
 * the customer's user id, so their events share a partition and arrive in order: "B became active"
 * never overtakes "A became inactive". Each event carries the whole state of the cart it is about.
 */

export const CartLineState = Type.Object({
  /** CartProductId: the line's own id. */
  id: Type.String(),
  productId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  qty: Type.Integer({ minimum: 1 }),
  /** The catalogue price when the line was last saved (the client's price is never used). */
  priceCents: Type.Integer({ minimum: 0 }),
  qboId: Type.Optional(Type.String()),
});

/** A cart line as events carry it (and as the order service keeps its copy). */
export type CartLineData = Static<typeof CartLineState>;

export const CartState = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  cartName: Type.String(),
  isActive: Type.Boolean(),
  didCheckOut: Type.Boolean(),
  createdAt: Type.String(),
  lines: Type.Array(CartLineState),
  totalCents: Type.Integer({ minimum: 0 }),
});

/** A cart was created or changed in any way (name, lines, active flag, checked out). */
export const CartChanged = defineEvent(
  'CartChanged',
  1,
  'cart',
  Type.Object({
    cart: CartState,
    /** Increases with every change of the customer's carts; projections ignore older states. */
    revision: Type.Integer({ minimum: 1 }),
  }),
);

export const CartDeleted = defineEvent(
  'CartDeleted',
  1,
  'cart',
  Type.Object({ userId: Type.String(), cartId: Type.String(), revision: Type.Integer({ minimum: 1 }) }),
);
