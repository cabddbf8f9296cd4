import { EstimateSubmitted, ProductDeleted, ProductUpserted, UserCreated } from '@decor/contracts';
import { type ConsumerSpec, eventHandler } from '@decor/kit';
import type { CartContext } from '../context';
import { checkOut } from '../domain/cart';
import { type CustomerCartsDoc, customerCartsOf, STATE_FIELDS } from '../store/carts-model';
import { changeWrite, clock, ensureCustomerCarts } from '../store/writes';

/** The state plus the ids of events already applied to it. */
const { appliedEvents: _applied, ...CHECKOUT_FIELDS } = STATE_FIELDS;

/** Attempts of one delivery before the consumer's own retry (a lost revision race each time). */
const CHECKOUT_ATTEMPTS = 6;

/**
 * The catalogue's products, copied for line saves and stock checks. ProductUpserted carries the
 * whole product, so applying it (again) is a plain overwrite: redelivery is harmless, and one
 * product's events arrive in order (keyed by SKU).
 */
export function productConsumer(ctx: CartContext): ConsumerSpec {
  return {
    name: 'products',
    topics: ['catalogue'],
    handlers: {
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
            },
          },
          { upsert: true },
        );
      }),
      ...eventHandler(ProductDeleted, async ({ payload }) => {
        await ctx.products.deleteOne({ _id: payload.sku });
      }),
    },
  };
}

/** A new customer gets their first active cart at once (the user service shows it after sign-up). */
export function customerConsumer(ctx: CartContext): ConsumerSpec {
  return {
    name: 'customers',
    topics: ['user'],
    handlers: eventHandler(UserCreated, async (event) => {
      if (event.payload.permissions !== 'customer') return;
      // Creates only if missing: a redelivered event finds the carts and changes nothing.
      await ensureCustomerCarts(ctx, event.payload.userId, event.correlationId);
    }),
  };
}

/**
 * Spec §4 order submission: the submitted cart is checked out and a new active cart replaces it, in
 * one write recorded with the event id (applyOnce), so a redelivered event or a second instance
 * changes nothing.
 */
export function checkoutConsumer(ctx: CartContext): ConsumerSpec {
  return {
    name: 'checkouts',
    topics: ['order'],
    handlers: eventHandler(EstimateSubmitted, async (event, ectx) => {
      const { userId, cartId } = event.payload;
      await ctx.customerLock.run(userId, async () => {
        for (let attempt = 1; attempt <= CHECKOUT_ATTEMPTS; attempt += 1) {
          const doc = await ctx.customerCarts.findById(userId, CHECKOUT_FIELDS).lean<CustomerCartsDoc>();
          if (!doc) {
            ectx.logger.warn(
              { userId, cartId },
              'estimate submitted for a customer without carts; nothing to check out',
            );
            return;
          }
          if (doc.appliedEvents?.includes(event.id)) return;
          const state = customerCartsOf(doc);
          const change = checkOut(state, cartId, clock());
          if (!change) {
            if (!state.carts.some((c) => c.id === cartId)) {
              ectx.logger.warn(
                { userId, cartId },
                'estimate submitted from an unknown cart; nothing to check out',
              );
            }
            return;
          }
          const { filter, update } = changeWrite(state, change, event.correlationId);
          if (await ectx.applyOnce(ctx.customerCarts, filter, update)) {
            ctx.eventsWritten();
            return;
          }
        }
        throw new Error(`carts of ${userId} kept changing while checking out cart ${cartId}`);
      });
    }),
  };
}
