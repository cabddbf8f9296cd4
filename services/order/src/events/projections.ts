import {
  CartChanged,
  CartDeleted,
  CategoryUpserted,
  ProductDeleted,
  ProductUpserted,
  TruckingFeeChanged,
  UserCreated,
} from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { OrderContext } from '../context';
import { TRUCKING_FEE_DOC } from '../store/projection-models';

/** A guarded upsert whose insert hit the existing `_id`: the stored state is newer, nothing to do. */
function isStale(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}

/**
 * Customers' carts, by cart id. All carts of one customer are one aggregate with one revision
 * counter, so a cart's stored revision tells whether an event is older than what we have. Events
 * of one write may share a revision, hence "not older" (`$lte`) rather than "newer": re-applying the
 * same state is harmless, an older one is never applied.
 */
export function cartEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return {
    ...eventHandler(CartChanged, async (event) => {
      const { cart, revision } = event.payload;
      try {
        await ctx.carts.updateOne(
          { _id: cart.id, revision: { $lte: revision } },
          {
            $set: {
              userId: cart.userId,
              cartName: cart.cartName,
              isActive: cart.isActive,
              didCheckOut: cart.didCheckOut,
              createdAt: cart.createdAt,
              lines: cart.lines.map((line) => ({ ...line, qboId: line.qboId ?? null })),
              totalCents: cart.totalCents,
              revision,
              deleted: false,
            },
          },
          { upsert: true },
        );
      } catch (err) {
        if (!isStale(err)) throw err;
      }
    }),
    ...eventHandler(CartDeleted, async (event) => {
      const { cartId, userId, revision } = event.payload;
      try {
        await ctx.carts.updateOne(
          { _id: cartId, revision: { $lte: revision } },
          { $set: { userId, revision, deleted: true, isActive: false, lines: [] } },
          { upsert: true },
        );
      } catch (err) {
        if (!isStale(err)) throw err;
      }
    }),
  };
}

/**
 * The trucking fee. There is one fee and its events are keyed by its id, so they arrive in order;
 * applyOnce skips a redelivered one.
 */
export function truckingFeeEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return eventHandler(TruckingFeeChanged, async (event, ectx) => {
    await ectx.applyOnce(
      ctx.truckingFee,
      { _id: TRUCKING_FEE_DOC },
      { $set: { feeId: event.payload.id, valueCents: event.payload.valueCents } },
      { upsert: true },
    );
  });
}

/** Users (for the estimate's customer: e-mail, display name, company). */
export function userEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return eventHandler(UserCreated, async (event, ectx) => {
    const user = event.payload;
    await ectx.applyOnce(
      ctx.users,
      { _id: user.userId },
      {
        $set: {
          email: user.email,
          displayName: user.displayName,
          permissions: user.permissions,
          companyId: user.companyId ?? null,
          ownCompany: user.ownCompany ?? null,
        },
      },
      { upsert: true },
    );
  });
}

/**
 * The catalogue's products (for line edits and bookings) and its categories (for their buffers). ProductUpserted carries the whole product and one
 * product's events arrive in order (keyed by SKU), so applying one (again) is a plain overwrite.
 */
export function productEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return {
    ...eventHandler(ProductUpserted, async ({ payload: p }) => {
      await ctx.products.updateOne(
        { _id: p.sku },
        {
          $set: {
            name: p.name,
            description: p.description,
            priceCents: p.priceCents,
            quantity: p.quantity,
            qboId: p.qboId ?? null,
            category: p.category,
            turnaround: p.turnaround ?? null,
          },
        },
        { upsert: true },
      );
    }),
    // Categories ride the same topic and group: their turnaround buffers widen bookings.
    ...eventHandler(CategoryUpserted, async ({ payload: c }) => {
      await ctx.categories.updateOne(
        { _id: c.id },
        { $set: { name: c.name, parentId: c.parentId ?? null, turnaround: c.turnaround ?? null } },
        { upsert: true },
      );
    }),
    ...eventHandler(ProductDeleted, async ({ payload }) => {
      await ctx.products.deleteOne({ _id: payload.sku });
    }),
  };
}
