import { type Connection, type Model, Schema } from 'mongoose';
import type { ProductInfo } from '../domain/cart';

/**
 * This service's copy of the catalogue (from ProductUpserted / ProductDeleted): what a cart line
 * needs at save time (name, description, current price, stock, accounting id). `_id` = the SKU.
 */
export interface ProductCopy {
  _id: string;
  name: string;
  description: string;
  priceCents: number;
  quantity: number;
  qboId: string | null;
}

const productSchema = new Schema<ProductCopy>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    priceCents: { type: Number, required: true, min: 0 },
    quantity: { type: Number, required: true, min: 0 },
    qboId: { type: String, default: null },
  },
  { timestamps: true },
);

export type ProductCopyModel = Model<ProductCopy>;

export function productCopyModel(connection: Connection): ProductCopyModel {
  return connection.model<ProductCopy>('ProductCopy', productSchema, 'products');
}

export function productInfo(doc: ProductCopy): ProductInfo {
  return {
    sku: doc._id,
    name: doc.name,
    description: doc.description ?? '',
    priceCents: doc.priceCents,
    quantity: doc.quantity,
    qboId: doc.qboId ?? null,
  };
}

/** The current products of these SKUs, by SKU (unknown SKUs are absent). */
export async function productsBySku(model: ProductCopyModel, skus: Iterable<string>) {
  const wanted = [...new Set(skus)];
  const found = new Map<string, ProductInfo>();
  if (wanted.length === 0) return found;
  const docs = await model.find({ _id: { $in: wanted } }).lean<ProductCopy[]>();
  for (const doc of docs) found.set(doc._id, productInfo(doc));
  return found;
}
