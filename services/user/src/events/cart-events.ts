import { CartChanged, toDollars } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { UserContext } from '../context';

/**
 * Keeps each customer's active cart (id, name, total) for the session call. A customer always has
 * exactly one active cart and every change of it (activation, lines, name) arrives as a CartChanged
 * with `isActive: true`, so the last such event IS the current cart: inactive ones change nothing.
 * Events of one customer share a partition (ordered); the revision guard makes replays harmless.
 * Several events of one write share a revision, hence `<=`.
 */
export function cartEventHandlers(ctx: UserContext): Record<string, EventHandler> {
  return eventHandler(CartChanged, async (event) => {
    const { cart, revision } = event.payload;
    if (!cart.isActive) return;
    try {
      await ctx.activeCarts.updateOne(
        { _id: cart.userId, revision: { $lte: revision } },
        { $set: { cartId: cart.id, cartName: cart.cartName, totalCents: cart.totalCents, revision } },
        { upsert: true },
      );
    } catch (err) {
      // The stored state is newer than this (replayed) event: the upsert's insert hit the existing _id.
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  });
}

export function sessionCart(cart: { cartId: string; cartName: string; totalCents: number } | null) {
  return cart ? { id: cart.cartId, cartName: cart.cartName, cartTotal: toDollars(cart.totalCents) } : null;
}
