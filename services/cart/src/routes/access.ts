import { forbidden, hasRole, notFound } from '@decor/kit';
import type { FastifyRequest } from 'fastify';
import type { CartContext } from '../context';
import { type Cart, type CustomerCarts, findCart, isActive, MESSAGES } from '../domain/cart';
import { type CartView, cartView, type OwnedCart } from '../domain/view';
import { productsBySku } from '../store/product-model';
import { ensureCustomerCarts, findCartOwner } from '../store/writes';

/** onRequest hook after `authenticate` on every write: carts belong to customers only. */
export async function customersOnly(request: FastifyRequest): Promise<void> {
  if (!hasRole(request.user, 'customer')) throw forbidden(MESSAGES.customersOnly);
}

export const isStaff = (request: FastifyRequest) => hasRole(request.user, 'staff');

export function owned(state: CustomerCarts, cart: Cart): OwnedCart {
  return { cart, userId: state.userId, isActive: isActive(state, cart) };
}

/**
 * A cart the caller may read: a customer's own (another customer's is "not found", not
 * "forbidden": nothing tells whether the id exists), any cart for staff.
 */
export async function readableCart(ctx: CartContext, request: FastifyRequest, cartId: string) {
  if (isStaff(request)) {
    const state = await findCartOwner(ctx, cartId);
    if (!state) throw notFound(MESSAGES.cartNotFound);
    return owned(state, findCart(state, cartId));
  }
  const state = await ensureCustomerCarts(ctx, request.user.id, request.id);
  return owned(state, findCart(state, cartId));
}

/** API views of carts, with every line's current stock from the product projection. */
export async function cartViews(ctx: CartContext, carts: readonly OwnedCart[]): Promise<CartView[]> {
  const products = await productsBySku(
    ctx.products,
    carts.flatMap((c) => c.cart.lines.map((l) => l.productId)),
  );
  return carts.map((c) => cartView(c, (sku) => products.get(sku)?.quantity ?? 0));
}

export async function oneCartView(ctx: CartContext, cart: OwnedCart): Promise<CartView> {
  const [view] = await cartViews(ctx, [cart]);
  return view as CartView;
}

/** Views of the carts a change touched, in the order they changed (from the state after it). */
export async function changedViews(ctx: CartContext, state: CustomerCarts, cartIds: readonly string[]) {
  return cartViews(
    ctx,
    cartIds.map((id) => owned(state, findCart(state, id))),
  );
}
