import { appliedEventsPlugin, type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';
import type { Cart, CartLine, CustomerCarts } from '../domain/cart';

/**
 * ONE document per customer (`_id` = the customer's user id) holding all their carts. MongoDB here
 * has no multi-document transactions, so keeping the carts together is what makes "exactly one
 * active cart" and every change plus its events a single atomic write. `isActive` is not stored:
 * a cart is active when its id is `activeCartId`.
 */
export interface CustomerCartsDoc extends OutboxFields {
  _id: string;
  activeCartId: string;
  carts: Cart[];
  revision: number;
  appliedEvents: string[];
}

// `id: false`: these schemas have a real `id` field, not mongoose's virtual one.
const lineSchema = new Schema<CartLine>(
  {
    id: { type: String, required: true },
    productId: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    qty: { type: Number, required: true, min: 1 },
    priceCents: { type: Number, required: true, min: 0 },
    qboId: { type: String, default: null },
  },
  { _id: false, id: false },
);

const cartSchema = new Schema<Cart>(
  {
    id: { type: String, required: true },
    cartName: { type: String, required: true },
    didCheckOut: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    lines: { type: [lineSchema], default: [] },
  },
  { _id: false, id: false },
);

const customerCartsSchema = new Schema<CustomerCartsDoc>(
  {
    _id: { type: String, required: true },
    activeCartId: { type: String, required: true },
    carts: { type: [cartSchema], default: [] },
    revision: { type: Number, required: true, min: 1 },
  },
  { timestamps: true, id: false },
);
// Staff open any cart by its id without knowing whose it is.
customerCartsSchema.index({ 'carts.id': 1 });
customerCartsSchema.plugin(outboxPlugin);
customerCartsSchema.plugin(appliedEventsPlugin);

export type CustomerCartsModel = Model<CustomerCartsDoc>;

export function customerCartsModel(connection: Connection): CustomerCartsModel {
  return connection.model<CustomerCartsDoc>('CustomerCarts', customerCartsSchema, 'customer_carts');
}

/** The relay's and the consumer's bookkeeping, left out of every read. */
export const STATE_FIELDS = {
  outbox: 0,
  outboxLeaseUntil: 0,
  outboxLeaseOwner: 0,
  appliedEvents: 0,
} as const;

export function customerCartsOf(doc: Pick<CustomerCartsDoc, '_id' | 'activeCartId' | 'carts' | 'revision'>) {
  const state: CustomerCarts = {
    userId: doc._id,
    activeCartId: doc.activeCartId,
    revision: doc.revision,
    carts: (doc.carts ?? []).map((c) => ({
      id: c.id,
      cartName: c.cartName,
      didCheckOut: c.didCheckOut ?? false,
      createdAt: new Date(c.createdAt),
      updatedAt: new Date(c.updatedAt ?? c.createdAt),
      lines: (c.lines ?? []).map((l) => ({
        id: l.id,
        productId: l.productId,
        name: l.name,
        description: l.description ?? '',
        qty: l.qty,
        priceCents: l.priceCents,
        qboId: l.qboId ?? null,
      })),
    })),
  };
  return state;
}
