import type { CartLineData, TurnaroundBuffer } from '@decor/contracts';
import { appliedEventsPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';
import type { CartSnapshot } from '../domain/estimate';

/**
 * What the order service keeps from other services' events (it never calls them): customers'
 * carts, the trucking fee and the users. Each is its own small collection.
 */

/** A cart as of the last CartChanged/CartDeleted applied; `_id` is the cart id. */
export interface CartProjection {
  _id: string;
  userId: string;
  cartName: string;
  isActive: boolean;
  didCheckOut: boolean;
  createdAt: string;
  lines: CartLineData[];
  totalCents: number;
  /** The customer's cart revision of the event this state came from (the guard against old events). */
  revision: number;
  /** A CartDeleted arrived: kept as a tombstone so an older CartChanged cannot bring it back. */
  deleted: boolean;
}

const cartLineSchema = new Schema(
  {
    id: String,
    productId: String,
    name: String,
    description: String,
    qty: Number,
    priceCents: Number,
    qboId: { type: String, default: null },
  },
  { _id: false },
);

const cartSchema = new Schema<CartProjection>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    cartName: String,
    isActive: Boolean,
    didCheckOut: Boolean,
    createdAt: String,
    lines: { type: [cartLineSchema], default: [] },
    totalCents: Number,
    revision: { type: Number, required: true },
    deleted: { type: Boolean, default: false },
  },
  { versionKey: false },
);
cartSchema.index({ userId: 1 });

export type CartProjectionModel = Model<CartProjection>;

export function cartProjectionModel(connection: Connection): CartProjectionModel {
  return connection.model<CartProjection>('CartProjection', cartSchema, 'carts');
}

export function cartSnapshot(cart: CartProjection | null): CartSnapshot | null {
  if (!cart || cart.deleted) return null;
  return {
    id: cart._id,
    userId: cart.userId,
    isActive: cart.isActive,
    didCheckOut: cart.didCheckOut,
    lines: cart.lines,
  };
}

/** The one trucking fee (spec §3 Trucking fee), from TruckingFeeChanged. */
export interface TruckingFeeProjection {
  _id: string;
  /** The catalogue's id of the fee. */
  feeId: string;
  valueCents: number;
  appliedEvents: string[];
}

export const TRUCKING_FEE_DOC = 'current';

const truckingSchema = new Schema<TruckingFeeProjection>(
  {
    _id: { type: String, required: true },
    feeId: { type: String, required: true },
    valueCents: { type: Number, required: true, min: 0 },
  },
  { versionKey: false },
);
truckingSchema.plugin(appliedEventsPlugin);

export type TruckingFeeModel = Model<TruckingFeeProjection>;

export function truckingFeeModel(connection: Connection): TruckingFeeModel {
  return connection.model<TruckingFeeProjection>('TruckingFee', truckingSchema, 'trucking_fee');
}

/** A user as UserCreated announced it; `_id` is the user id. */
export interface UserProjection {
  _id: string;
  email: string;
  displayName: string;
  permissions: string;
  companyId: string | null;
  /** The name of the customer's company (spec: the estimate's customer name). */
  ownCompany: string | null;
  appliedEvents: string[];
}

const userSchema = new Schema<UserProjection>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    displayName: { type: String, default: '' },
    permissions: { type: String, required: true },
    companyId: { type: String, default: null },
    ownCompany: { type: String, default: null },
  },
  { versionKey: false },
);
userSchema.plugin(appliedEventsPlugin);

export type UserProjectionModel = Model<UserProjection>;

export function userProjectionModel(connection: Connection): UserProjectionModel {
  return connection.model<UserProjection>('UserProjection', userSchema, 'users');
}

/**
 * A product as the catalogue last announced it (ProductUpserted / ProductDeleted); `_id` is the SKU.
 * Order line edits take price, name, description, stock and QuickBooks id from here (never from
 * the client, never from the catalogue's database).
 */
export interface ProductProjection {
  _id: string;
  name: string;
  description: string;
  priceCents: number;
  quantity: number;
  qboId: string | null;
  /** The category's name (bookings take its turnaround buffer). */
  category?: string;
  /** The product's own turnaround buffer, where staff set one. */
  turnaround?: Partial<TurnaroundBuffer> | null;
}

const turnaroundSchema = new Schema<Partial<TurnaroundBuffer>>(
  { before: { type: Number }, after: { type: Number } },
  { _id: false, versionKey: false },
);

const productSchema = new Schema<ProductProjection>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    priceCents: { type: Number, required: true, min: 0 },
    quantity: { type: Number, required: true, min: 0 },
    qboId: { type: String, default: null },
    category: { type: String },
    turnaround: { type: turnaroundSchema, default: null },
  },
  { versionKey: false },
);

export type ProductProjectionModel = Model<ProductProjection>;

export function productProjectionModel(connection: Connection): ProductProjectionModel {
  return connection.model<ProductProjection>('ProductProjection', productSchema, 'products');
}

/** A top-level category as the catalogue last announced it (for its turnaround buffer); `_id` is its id. */
export interface CategoryProjection {
  _id: string;
  name: string;
  parentId: string | null;
  turnaround: Partial<TurnaroundBuffer> | null;
}

const categorySchema = new Schema<CategoryProjection>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    parentId: { type: String, default: null },
    turnaround: { type: turnaroundSchema, default: null },
  },
  { versionKey: false },
);
categorySchema.index({ name: 1, parentId: 1 });

export type CategoryProjectionModel = Model<CategoryProjection>;

export function categoryProjectionModel(connection: Connection): CategoryProjectionModel {
  return connection.model<CategoryProjection>('CategoryProjection', categorySchema, 'categories');
}
