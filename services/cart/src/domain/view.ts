import { type CartState, type CartView, cartTotalCents, lineTotalCents, toDollars } from '@decor/contracts';
import type { Static } from '@sinclair/typebox';
import type { Cart } from './cart';

export type { CartView };

/** A cart with whose it is and whether it is that customer's active cart. */
export interface OwnedCart {
  cart: Cart;
  userId: string;
  isActive: boolean;
}

/** The full state of a cart as CartChanged carries it (money in cents). */
export function cartState({ cart, userId, isActive }: OwnedCart): Static<typeof CartState> {
  return {
    id: cart.id,
    userId,
    cartName: cart.cartName,
    isActive,
    didCheckOut: cart.didCheckOut,
    createdAt: cart.createdAt.toISOString(),
    lines: cart.lines.map((l) => ({
      id: l.id,
      productId: l.productId,
      name: l.name,
      description: l.description,
      qty: l.qty,
      priceCents: l.priceCents,
      ...(l.qboId ? { qboId: l.qboId } : {}),
    })),
    totalCents: cartTotalCents(cart.lines),
  };
}

/**
 * A cart as the API shows it (spec §3 Cart and Cart line). `stockOf` gives a product's current
 * stock (0 when the catalogue no longer has it).
 */
export function cartView({ cart, userId, isActive }: OwnedCart, stockOf: (sku: string) => number): CartView {
  return {
    id: cart.id,
    UserId: userId,
    cartName: cart.cartName,
    isActive,
    didCheckOut: cart.didCheckOut,
    createdAt: cart.createdAt.toISOString(),
    cartTotal: toDollars(cartTotalCents(cart.lines)),
    CartProducts: cart.lines.map((l) => ({
      id: l.productId,
      CartId: cart.id,
      CartProductId: l.id,
      name: l.name,
      description: l.description,
      qty: l.qty,
      price: toDollars(l.priceCents),
      total: toDollars(lineTotalCents(l.priceCents, l.qty)),
      quantity: stockOf(l.productId),
      qboId: l.qboId ?? null,
    })),
  };
}
