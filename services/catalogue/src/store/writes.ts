import { CategoryUpserted, ProductUpserted, TruckingFeeChanged } from '@decor/contracts';
import { newEvent } from '@decor/kit';
import type { CatalogueContext } from '../context';
import { imageView, type ProductState } from '../domain/product';
import type { Product } from './product-model';
import { TRUCKING_FEE_ID, type TruckingFee } from './trucking-model';

/**
 * Every catalogue change is ONE document write that also pushes its event onto that document's
 * outbox, so the change and its event are stored together or not at all (the relay publishes it).
 */

type StoredProduct = ProductState & { images: (ProductState['images'][number] & { key?: string })[] };

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
  };
}

/** Creates or replaces a product and publishes ProductUpserted with its new state. */
export async function saveProduct(
  ctx: CatalogueContext,
  product: StoredProduct,
  correlationId: string,
): Promise<void> {
  await ctx.products.updateOne(
    { _id: product.sku },
    { $set: productFields(product), $push: { outbox: productEvent(product, correlationId) } },
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

export async function createCategoryIfMissing(
  ctx: CatalogueContext,
  category: { id: string; name: string; parentId?: string },
  correlationId: string,
): Promise<boolean> {
  const event = newEvent(CategoryUpserted, {
    aggregateId: category.id,
    correlationId,
    payload: {
      id: category.id,
      name: category.name,
      ...(category.parentId ? { parentId: category.parentId } : {}),
    },
  });
  return insertIfMissing(() =>
    ctx.categories.updateOne(
      { _id: category.id },
      { $setOnInsert: { name: category.name, parentId: category.parentId ?? null, outbox: [event] } },
      { upsert: true },
    ),
  );
}

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
