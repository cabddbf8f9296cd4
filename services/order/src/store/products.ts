import type { OrderContext } from '../context';
import type { CatalogueProduct } from '../domain/lines';
import type { ProductProjection } from './projection-models';

async function bySku(ctx: OrderContext, skus: readonly string[]): Promise<Map<string, CatalogueProduct>> {
  const docs = await ctx.products.find({ _id: { $in: skus } }).lean<ProductProjection[]>();
  return new Map(
    docs.map((p) => [
      p._id,
      {
        sku: p._id,
        name: p.name,
        description: p.description ?? '',
        priceCents: p.priceCents,
        quantity: p.quantity,
        qboId: p.qboId ?? null,
      },
    ]),
  );
}

/**
 * The catalogue's products of these lines, by SKU, from this service's copy. When one is missing,
 * first waits for the products consumer to reach the topic's end (at most ~3 s): a product staff
 * just picked from the catalogue may be on Kafka but not read yet.
 */
export async function catalogueProducts(
  ctx: OrderContext,
  lines: readonly { id: string }[] | undefined,
): Promise<Map<string, CatalogueProduct>> {
  const skus = [...new Set((lines ?? []).map((line) => line.id))];
  if (skus.length === 0) return new Map();
  const found = await bySku(ctx, skus);
  if (found.size === skus.length) return found;
  await ctx.catchUp('products');
  return bySku(ctx, skus);
}
