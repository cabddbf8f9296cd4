import type { MongoList } from '@decor/kit';
import type { CatalogueContext } from '../context';
import { LIVE, type Product } from './product-model';
import { TRUCKING_FEE_ID } from './trucking-model';

/** A product read leaves out the outbox bookkeeping. */
export const PRODUCT_FIELDS = { outbox: 0, outboxLeaseUntil: 0, outboxLeaseOwner: 0 } as const;

/** A product that is not deleted, or null. */
export const liveProduct = (ctx: CatalogueContext, sku: string) =>
  ctx.products.findOne({ _id: sku, ...LIVE }, PRODUCT_FIELDS).lean<Product>();

/** One page of the live products a list asks for (filter, order, paging as the kit's list spec made them), and their total. */
export async function productPage(
  ctx: CatalogueContext,
  list: MongoList,
): Promise<{ items: Product[]; total: number }> {
  const live = { ...list.filter, ...LIVE };
  const [items, total] = await Promise.all([
    ctx.products
      .find(live, PRODUCT_FIELDS)
      .sort(list.sort)
      .skip(list.skip)
      .limit(list.limit)
      .lean<Product[]>(),
    ctx.products.countDocuments(live),
  ]);
  return { items, total };
}

/** Every category and subcategory: its id, name and parent. */
export async function categoryTree(ctx: CatalogueContext) {
  const all = await ctx.categories.find({}, { name: 1, parentId: 1 }).lean();
  return all.map((c) => ({ id: c._id, name: c.name, parentId: c.parentId ?? null }));
}

/** Every category and subcategory by name (then id), for the public list. */
export const categoriesByName = (ctx: CatalogueContext) =>
  ctx.categories.find({}, { name: 1, parentId: 1 }).sort({ name: 1, _id: 1 }).lean();

/** One category without its outbox, or null. */
export const categoryById = (ctx: CatalogueContext, id: string) =>
  ctx.categories.findById(id, { outbox: 0 }).lean();

/** The trucking fee as stored (created at start), or null. */
export const truckingFee = (ctx: CatalogueContext) =>
  ctx.trucking.findById(TRUCKING_FEE_ID, { valueCents: 1 }).lean();
