import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';
import type { ProductImage, ProductState } from '../domain/product';

/** Spec §3 Product; `_id` is the SKU, money in cents; images keep their S3 key for later deletion. */
export interface Product extends OutboxFields, Omit<ProductState, 'sku' | 'images'> {
  _id: string;
  images: (ProductImage & { key?: string })[];
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
  },
  { timestamps: true },
);
// The storefront lists one subcategory at a time (and the quick add one category), by name.
productSchema.index({ category: 1, subcategory: 1, name: 1 });
productSchema.plugin(outboxPlugin);

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
  };
}
