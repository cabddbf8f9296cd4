import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';
import type { ProductImage, ProductState } from '../domain/product';

/** Spec §3 Product; `_id` is the SKU, money in cents; images keep their S3 key for later deletion. */
export interface Product extends OutboxFields, Omit<ProductState, 'sku' | 'images'> {
  _id: string;
  images: (ProductImage & { key?: string })[];
  /** Bumped by every change: writes are guarded by the revision they computed from. */
  revision?: number;
  /** A deleted product stays as a tombstone until its ProductDeleted event (in its outbox) is out. */
  deleted?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const imageSchema = new Schema(
  {
    id: { type: String, required: true },
    url: { type: String, required: true },
    primary: { type: Boolean, default: false },
    type: { type: String, required: true },
    key: String,
  },
  { _id: false },
);

const productSchema = new Schema<Product>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    priceCents: { type: Number, required: true, min: 0 },
    quantity: { type: Number, required: true, min: 0 },
    category: { type: String, required: true },
    subcategory: { type: String, required: true },
    qboId: { type: String, default: null },
    syncToken: { type: String, default: null },
    images: { type: [imageSchema], default: [] },
    turnaroundBefore: { type: Number, default: null },
    turnaroundAfter: { type: Number, default: null },
    revision: { type: Number, default: 0 },
    deleted: { type: Boolean, default: false },
  },
  { timestamps: true },
);
// The storefront lists one subcategory at a time (and the quick add one category), by name.
productSchema.index({ category: 1, subcategory: 1, name: 1 });
productSchema.plugin(outboxPlugin);

/** Products on the site (not deleted ones), for every read and write filter. */
export const LIVE = { deleted: { $ne: true } } as const;

export type ProductModel = Model<Product>;

export function productModel(connection: Connection): ProductModel {
  return connection.model<Product>('Product', productSchema, 'products');
}

export function productState(doc: Product): ProductState {
  return {
    sku: doc._id,
    name: doc.name,
    description: doc.description ?? '',
    priceCents: doc.priceCents,
    quantity: doc.quantity,
    category: doc.category,
    subcategory: doc.subcategory,
    qboId: doc.qboId ?? null,
    syncToken: doc.syncToken ?? null,
    images: doc.images ?? [],
    turnaroundBefore: doc.turnaroundBefore ?? null,
    turnaroundAfter: doc.turnaroundAfter ?? null,
  };
}
