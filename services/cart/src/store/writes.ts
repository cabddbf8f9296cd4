import { CartChanged, CartDeleted, type EventEnvelope } from '@decor/contracts';
import { afterLostRace, conflict, newEvent } from '@decor/kit';
import { Types } from 'mongoose';
import type { CartContext } from '../context';
import {
  applyChange,
  type CartsChange,
  type Clock,
  type CustomerCarts,
  isActive,
  MESSAGES,
  newCustomerCarts,
} from '../domain/cart';
import { cartState } from '../domain/view';
import { type CustomerCartsDoc, customerCartsOf, STATE_FIELDS } from './carts-model';

/**
 * Every change of a customer's carts is ONE update of their document that also pushes the events
 * announcing it onto the document's outbox (the relay publishes them). A change is computed by a
 * pure domain function from the document as read, and written only if the document still has the
 * revision it was read at; otherwise it is recomputed from the fresh document.
 */

const ATTEMPTS = 6;

export function clock(): Clock {
  return { newId: () => new Types.ObjectId().toHexString(), now: new Date() };
}

/** CartChanged for each changed cart (in order) and CartDeleted for each deleted one. */
export function changeEvents(
  before: CustomerCarts,
  change: CartsChange,
  correlationId: string,
): EventEnvelope[] {
  const after = applyChange(before, change);
  const { userId, revision } = after;
  const changed = change.changed.map((cartId) => {
    const cart = after.carts.find((c) => c.id === cartId);
    if (!cart) throw new Error(`changed cart ${cartId} is not in the new state`);
    return newEvent(CartChanged, {
      aggregateId: userId,
      correlationId,
      payload: { cart: cartState({ cart, userId, isActive: isActive(after, cart) }), revision },
    });
  });
  const deleted = change.deleted.map((cartId) =>
    newEvent(CartDeleted, { aggregateId: userId, correlationId, payload: { userId, cartId, revision } }),
  );
  return [...changed, ...deleted];
}

/** The guarded single-document write of `change`: filter and update. */
export function changeWrite(before: CustomerCarts, change: CartsChange, correlationId: string) {
  return {
    filter: { _id: before.userId, revision: before.revision },
    update: {
      $set: { activeCartId: change.activeCartId, carts: change.carts },
      $inc: { revision: 1 },
      $push: { outbox: { $each: changeEvents(before, change, correlationId) } },
    },
  };
}

export async function readCustomerCarts(ctx: CartContext, userId: string): Promise<CustomerCarts | null> {
  const doc = await ctx.customerCarts.findById(userId, STATE_FIELDS).lean<CustomerCartsDoc>();
  return doc ? customerCartsOf(doc) : null;
}

/** The customer whose carts hold `cartId` (staff reads), or null. */
export async function findCartOwner(ctx: CartContext, cartId: string): Promise<CustomerCarts | null> {
  const doc = await ctx.customerCarts.findOne({ 'carts.id': cartId }, STATE_FIELDS).lean<CustomerCartsDoc>();
  return doc ? customerCartsOf(doc) : null;
}

/**
 * The customer's carts, created on first use with one active 'My Cart' (and its CartChanged event).
 * Safe when several calls race: `_id` is unique, one insert wins and the others read its result.
 */
export async function ensureCustomerCarts(
  ctx: CartContext,
  userId: string,
  correlationId: string,
): Promise<CustomerCarts> {
  const existing = await readCustomerCarts(ctx, userId);
  if (existing) return existing;
  const fresh = newCustomerCarts(userId, clock());
  const [first] = fresh.carts;
  const event = newEvent(CartChanged, {
    aggregateId: userId,
    correlationId,
    payload: {
      cart: cartState({ cart: first as NonNullable<typeof first>, userId, isActive: true }),
      revision: fresh.revision,
    },
  });
  let created = false;
  try {
    const res = await ctx.customerCarts.updateOne(
      { _id: userId },
      {
        $setOnInsert: {
          activeCartId: fresh.activeCartId,
          carts: fresh.carts,
          revision: fresh.revision,
          outbox: [event],
        },
      },
      { upsert: true },
    );
    created = res.upsertedCount > 0;
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  // The user service shows the active cart from these events right after sign-up or first use.
  if (created) await ctx.eventsPublished();
  const state = await readCustomerCarts(ctx, userId);
  if (!state) throw new Error(`carts of ${userId} vanished right after being created`);
  return state;
}

export interface Changed {
  /** The state after the call (unchanged when `change` returned null). */
  state: CustomerCarts;
  change: CartsChange | null;
}

/**
 * Reads the customer's carts (creating them on first use), computes `compute(state, clock)` and
 * writes it if the document has not changed since it was read; a lost race recomputes from the
 * fresh document a few times, then answers 409. `compute` returning null writes nothing. Resolves
 * once the events are on Kafka: the order and user services read cart state from them next.
 */
export async function changeCustomerCarts(
  ctx: CartContext,
  userId: string,
  correlationId: string,
  compute: (state: CustomerCarts, clock: Clock) => CartsChange | null,
): Promise<Changed> {
  return ctx.customerLock.run(userId, async () => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const state = await ensureCustomerCarts(ctx, userId, correlationId);
      const change = compute(state, clock());
      if (!change) return { state, change };
      const { filter, update } = changeWrite(state, change, correlationId);
      const res = await ctx.customerCarts.updateOne(filter, update);
      if (res.matchedCount > 0) {
        await ctx.eventsPublished();
        return { state: applyChange(state, change), change };
      }
      // Another instance wrote first: back off a little (with jitter) and recompute.
      await afterLostRace(attempt);
    }
    throw conflict(MESSAGES.changedMeanwhile);
  });
}
