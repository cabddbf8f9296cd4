import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';

/** Spec §3 Category / Subcategory: QuickBooks-style string ids; a subcategory names its parent. */
export interface Category extends OutboxFields {
  _id: string;
  name: string;
  /** Parent category id (spec: ParentRef.value); null for a top-level category. */
  parentId: string | null;
  /** A top-level category's own turnaround buffer in whole days (issue 15); null inherits the shop's. */
  turnaroundBefore?: number | null;
  turnaroundAfter?: number | null;
}

const categorySchema = new Schema<Category>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    parentId: { type: String, default: null },
    turnaroundBefore: { type: Number, default: null },
    turnaroundAfter: { type: Number, default: null },
  },
  { timestamps: true },
);
categorySchema.plugin(outboxPlugin);

export type CategoryModel = Model<Category>;

export function categoryModel(connection: Connection): CategoryModel {
  return connection.model<Category>('Category', categorySchema, 'categories');
}
