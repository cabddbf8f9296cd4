import { type Connection, type Model, Schema } from 'mongoose';

/**
 * The customer's active cart as `GET /auth/jwt` shows it, kept from the cart service's events (this
 * service never asks the cart service). `_id` is the customer's user id.
 */
export interface ActiveCart {
  _id: string;
  cartId: string;
  cartName: string;
  totalCents: number;
  /** The cart aggregate's revision of the event this state came from. */
  revision: number;
}

const activeCartSchema = new Schema<ActiveCart>(
  {
    _id: { type: String, required: true },
    cartId: { type: String, required: true },
    cartName: { type: String, required: true },
    totalCents: { type: Number, required: true },
    revision: { type: Number, required: true },
  },
  { versionKey: false },
);

export type ActiveCartModel = Model<ActiveCart>;

export function activeCartModel(connection: Connection): ActiveCartModel {
  return connection.model<ActiveCart>('ActiveCart', activeCartSchema, 'active_carts');
}
