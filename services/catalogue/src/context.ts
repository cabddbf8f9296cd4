import type { BaseContext } from '@decor/kit';
import { ResponseCache } from './cache';
import { type CacheInvalidation, startCacheInvalidation } from './cache-invalidation';
import type { CatalogueConfig } from './config';
import { type CategoryModel, categoryModel } from './store/category-model';
import { type ImageStore, imageStore } from './store/image-store';
import { type ProductModel, productModel } from './store/product-model';
import { type TruckingModel, truckingModel } from './store/trucking-model';

export interface CatalogueContext extends BaseContext<CatalogueConfig> {
  products: ProductModel;
  categories: CategoryModel;
  trucking: TruckingModel;
  images: ImageStore;
  /** Ready answers of the public reads (see cache.ts for why it stays correct). */
  cache: ResponseCache;
  cacheInvalidation: CacheInvalidation;
  /** After a product or category write of this instance: clear the cache, wake the outbox relay. */
  catalogueChanged(): void;
}

export function buildCatalogueContext(base: BaseContext<CatalogueConfig>): CatalogueContext {
  const cache = new ResponseCache(base.config.CATALOGUE_CACHE_TTL_MS);
  return {
    ...base,
    products: productModel(base.connection),
    categories: categoryModel(base.connection),
    trucking: truckingModel(base.connection),
    images: imageStore(base.config),
    cache,
    cacheInvalidation: startCacheInvalidation(base, cache),
    catalogueChanged() {
      cache.invalidate();
      base.eventsWritten();
    },
  };
}
