import { CategoryUpserted, ProductDeleted, ProductUpserted, TruckingFeeChanged } from '@decor/contracts';
import { afterLostRace, conflict, newEvent, notFound } from '@decor/kit';
import type { CatalogueContext } from '../context';
import { imageView, type ProductState, turnaroundOverride } from '../domain/product';
import { LIVE, type Product, productState } from './product-model';
import { TRUCKING_FEE_ID, type TruckingFee } from './trucking-model';

/**
 * Every catalogue change is ONE document write that also pushes its event onto that document's
 * outbox, so the change and its event are stored together or not at all (the relay publishes it).
 */

export type StoredProduct = ProductState & { images: (ProductState['images'][number] & { key?: string })[] };

export function productEvent(product: ProductState, correlationId: string) {
  return newEvent(ProductUpserted, {
    aggregateId: product.sku,
    correlationId,
    payload: {
      sku: product.sku,
      name: product.name,
      description: product.description,
      priceCents: product.priceCents,
      quantity: product.quantity,
      category: product.category,
      subcategory: product.subcategory,
      images: product.images.map(imageView),
      ...(product.qboId ? { qboId: product.qboId } : {}),
      ...withTurnaround(product.turnaroundBefore, product.turnaroundAfter),
    },
  });
}

function productFields(product: StoredProduct) {
  return {
    name: product.name,
    description: product.description,
    priceCents: product.priceCents,
    quantity: product.quantity,
    category: product.category,
    subcategory: product.subcategory,
    qboId: product.qboId ?? null,
    syncToken: product.syncToken ?? null,
    images: product.images,
    turnaroundBefore: product.turnaroundBefore ?? null,
    turnaroundAfter: product.turnaroundAfter ?? null,
  };
}

/** `turnaround` for an event's payload, only when a side is set. */
function withTurnaround(before: number | null | undefined, after: number | null | undefined) {
  const turnaround = turnaroundOverride(before, after);
  return turnaround ? { turnaround } : {};
}

/** Creates or replaces a product and publishes ProductUpserted with its new state. */
export async function saveProduct(
  ctx: CatalogueContext,
  product: StoredProduct,
  correlationId: string,
): Promise<void> {
  await ctx.products.updateOne(
    { _id: product.sku },
    {
      $set: { ...productFields(product), deleted: false },
      $inc: { revision: 1 },
      $push: { outbox: productEvent(product, correlationId) },
    },
    { upsert: true },
  );
  ctx.catalogueChanged();
}

/**
 * Creates a product only if its SKU is new (and then publishes ProductUpserted); an existing one
 * is left alone. Safe when several instances do it at once: one insert wins, the rest change nothing.
 */
export async function createProductIfMissing(
  ctx: CatalogueContext,
  product: StoredProduct,
  correlationId: string,
): Promise<boolean> {
  const fields = { ...productFields(product), outbox: [productEvent(product, correlationId)] };
  return insertIfMissing(() =>
    ctx.products.updateOne(
      { _id: product.sku },
      { $setOnInsert: fields as Partial<Product> },
      { upsert: true },
    ),
  );
}

export const PRODUCT_NOT_FOUND = 'Product not found';
const CHANGED_MEANWHILE = 'This product kept changing while it was saved; reload it and try again';
const ATTEMPTS = 5;

function stored(doc: Product): StoredProduct {
  return { ...productState(doc), images: doc.images ?? [] };
}

/**
 * Creates a product whose SKU is new on the site (a deleted product's SKU may be used again):
 * one insert, or one write over the tombstone guarded by its revision; 409 if the SKU is taken.
 */
export async function createProduct(
  ctx: CatalogueContext,
  product: StoredProduct,
  correlationId: string,
  skuTaken: string,
): Promise<void> {
  const fields = { ...productFields(product), revision: 1, deleted: false };
  const event = productEvent(product, correlationId);
  const existing = await ctx.products.findById(product.sku, { deleted: 1, revision: 1 }).lean();
  if (existing && !existing.deleted) throw conflict(skuTaken);
  const written = existing
    ? (
        await ctx.products.updateOne(
          { _id: product.sku, deleted: true, revision: existing.revision ?? null },
          { $set: fields, $push: { outbox: event } },
        )
      ).modifiedCount > 0
    : await insertIfMissing(() =>
        ctx.products.updateOne(
          { _id: product.sku },
          { $setOnInsert: { ...fields, outbox: [event] } as Partial<Product> },
          { upsert: true },
        ),
      );
  // Someone else created (or re-created) this SKU in between.
  if (!written) throw conflict(skuTaken);
  ctx.catalogueChanged();
  await ctx.eventsPublished();
}

/**
 * Changes a product on the site: reads it, computes the new state (`compute` throws the rule's
 * error, or returns null for "nothing to change"), then one write guarded by the revision it read,
 * with ProductUpserted in the same write; recomputed if someone else wrote first. 404 when the
 * product is not on the site. Returns the state before and after.
 */
export async function changeProduct(
  ctx: CatalogueContext,
  sku: string,
  correlationId: string,
  compute: (product: StoredProduct) => StoredProduct | null | Promise<StoredProduct | null>,
): Promise<{ before: StoredProduct; after: StoredProduct }> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const doc = await ctx.products.findOne({ _id: sku, ...LIVE }).lean<Product>();
    if (!doc) throw notFound(PRODUCT_NOT_FOUND);
    const before = stored(doc);
    const after = await compute(before);
    if (!after) return { before, after: before };
    const res = await ctx.products.updateOne(
      { _id: sku, ...LIVE, revision: doc.revision ?? null },
      {
        $set: productFields(after),
        $inc: { revision: 1 },
        $push: { outbox: productEvent(after, correlationId) },
      },
    );
    if (res.modifiedCount > 0) {
      ctx.catalogueChanged();
      await ctx.eventsPublished();
      return { before, after };
    }
    await afterLostRace(attempt);
  }
  throw conflict(CHANGED_MEANWHILE);
}

/**
 * Takes a product off the site: the document stays as a tombstone (deleted, no images) so its
 * ProductDeleted event travels from its outbox like every other; its files are removed by a job.
 * Returns the files to remove and the revision of the deletion (the job's cause).
 */
export async function deleteProduct(
  ctx: CatalogueContext,
  sku: string,
  correlationId: string,
): Promise<{ keys: string[]; revision: number }> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const doc = await ctx.products.findOne({ _id: sku, ...LIVE }).lean<Product>();
    if (!doc) throw notFound(PRODUCT_NOT_FOUND);
    const revision = (doc.revision ?? 0) + 1;
    const event = newEvent(ProductDeleted, { aggregateId: sku, correlationId, payload: { sku } });
    const res = await ctx.products.updateOne(
      { _id: sku, ...LIVE, revision: doc.revision ?? null },
      { $set: { deleted: true, images: [], revision }, $push: { outbox: event } },
    );
    if (res.modifiedCount > 0) {
      ctx.catalogueChanged();
      await ctx.eventsPublished();
      return { keys: (doc.images ?? []).flatMap((i) => (i.key ? [i.key] : [])), revision };
    }
    await afterLostRace(attempt);
  }
  throw conflict(CHANGED_MEANWHILE);
}

/** A category as the catalogue stores and announces it. */
export interface CategoryState {
  id: string;
  name: string;
  parentId?: string | null;
  turnaroundBefore?: number | null;
  turnaroundAfter?: number | null;
}

function categoryEvent(category: CategoryState, correlationId: string) {
  return newEvent(CategoryUpserted, {
    aggregateId: category.id,
    correlationId,
    payload: {
      id: category.id,
      name: category.name,
      ...(category.parentId ? { parentId: category.parentId } : {}),
      ...withTurnaround(category.turnaroundBefore, category.turnaroundAfter),
    },
  });
}

export async function createCategoryIfMissing(
  ctx: CatalogueContext,
  category: CategoryState,
  correlationId: string,
): Promise<boolean> {
  return insertIfMissing(() =>
    ctx.categories.updateOne(
      { _id: category.id },
      {
        $setOnInsert: {
          name: category.name,
          parentId: category.parentId ?? null,
          turnaroundBefore: category.turnaroundBefore ?? null,
          turnaroundAfter: category.turnaroundAfter ?? null,
          outbox: [categoryEvent(category, correlationId)],
        },
      },
      { upsert: true },
    ),
  );
}

/**
 * Sets a category's own turnaround buffer (both sides: null inherits) and publishes CategoryUpserted
 * with it, in one write. Null when there is no such category. The write is guarded by the name and
 * parent it announces, so the event never carries a stale one.
 */
export async function setCategoryTurnaround(
  ctx: CatalogueContext,
  id: string,
  buffer: { before: number | null; after: number | null },
  correlationId: string,
): Promise<CategoryState | null> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const doc = await ctx.categories.findById(id, { name: 1, parentId: 1 }).lean();
    if (!doc) return null;
    const next: CategoryState = {
      id,
      name: doc.name,
      parentId: doc.parentId ?? null,
      turnaroundBefore: buffer.before,
      turnaroundAfter: buffer.after,
    };
    const res = await ctx.categories.updateOne(
      { _id: id, name: doc.name, parentId: doc.parentId ?? null },
      {
        $set: { turnaroundBefore: buffer.before, turnaroundAfter: buffer.after },
        $push: { outbox: categoryEvent(next, correlationId) },
      },
    );
    if (res.modifiedCount > 0) {
      ctx.catalogueChanged();
      await ctx.eventsPublished();
      return next;
    }
    await afterLostRace(attempt);
  }
  throw conflict(CATEGORY_CHANGED_MEANWHILE);
}

const CATEGORY_CHANGED_MEANWHILE = 'This category kept changing while it was saved; reload it and try again';

function truckingEvent(id: string, valueCents: number, correlationId: string) {
  return newEvent(TruckingFeeChanged, { aggregateId: id, correlationId, payload: { id, valueCents } });
}

/**
 * The trucking fee exists in every deployment (the client reads its id to change it): created at
 * start with the configured default the first time, and announced so the order service knows it.
 */
export async function ensureTruckingFee(ctx: CatalogueContext): Promise<void> {
  const valueCents = Math.round(ctx.config.DEFAULT_TRUCKING_FEE * 100);
  const created = await insertIfMissing(() =>
    ctx.trucking.updateOne(
      { _id: TRUCKING_FEE_ID },
      {
        $setOnInsert: {
          valueCents,
          outbox: [truckingEvent(TRUCKING_FEE_ID, valueCents, 'initial-trucking-fee')],
        },
      },
      { upsert: true },
    ),
  );
  if (created) ctx.eventsWritten();
}

/** Sets the fee and publishes TruckingFeeChanged; null when there is no fee with that id. */
export async function setTruckingFee(
  ctx: CatalogueContext,
  id: string,
  valueCents: number,
  correlationId: string,
): Promise<TruckingFee | null> {
  const fee = await ctx.trucking
    .findOneAndUpdate(
      { _id: id },
      { $set: { valueCents }, $push: { outbox: truckingEvent(id, valueCents, correlationId) } },
      { new: true, projection: { outbox: 0 } },
    )
    .lean();
  if (fee) ctx.eventsWritten();
  return fee;
}

/** Runs an upsert that only inserts; true if this call inserted. A racing insert of the same id is "not me". */
async function insertIfMissing(upsert: () => Promise<{ upsertedCount: number }>): Promise<boolean> {
  try {
    return (await upsert()).upsertedCount > 0;
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return false;
    throw err;
  }
}
