import { type BaseContext, type JobWorker, registerQueueMetrics } from '@decor/kit';
import type { Queue } from 'bullmq';
import { ResponseCache } from './cache';
import { type CacheInvalidation, startCacheInvalidation } from './cache-invalidation';
import type { CatalogueConfig } from './config';
import { type ImageJob, imageQueue, imageWorker } from './jobs/image-jobs';
import { type CategoryModel, categoryModel } from './store/category-model';
import { type ImageStore, imageStore } from './store/image-store';
import { type ProductModel, productModel } from './store/product-model';
import { type TruckingModel, truckingModel } from './store/trucking-model';
import { type UploadModel, uploadModel } from './store/upload-model';

export interface CatalogueContext extends BaseContext<CatalogueConfig> {
  products: ProductModel;
  categories: CategoryModel;
  trucking: TruckingModel;
  images: ImageStore;
  uploads: UploadModel;
  /** Upload cleanup and file deletion jobs (jobs/image-jobs.ts). */
  imageQueue: Queue<ImageJob>;
  /** This process's image job worker (none with IMAGE_JOB_CONCURRENCY=0). */
  imageWorker: JobWorker<ImageJob> | null;
  /** Ready answers of the public reads (see cache.ts for why it stays correct). */
  cache: ResponseCache;
  cacheInvalidation: CacheInvalidation;
  /** After a product or category write of this instance: clear the cache, wake the outbox relay. */
  catalogueChanged(): void;
}

export function buildCatalogueContext(base: BaseContext<CatalogueConfig>): CatalogueContext {
  const { config } = base;
  const cache = new ResponseCache(config.CATALOGUE_CACHE_TTL_MS);
  const images = imageStore(config);
  const uploads = uploadModel(base.connection);
  const products = productModel(base.connection);
  const queue = imageQueue(base.redis, config.REDIS_PREFIX, base.log);
  registerQueueMetrics(base.metrics, [queue]);
  return {
    ...base,
    products,
    categories: categoryModel(base.connection),
    trucking: truckingModel(base.connection),
    images,
    uploads,
    imageQueue: queue,
    imageWorker:
      config.IMAGE_JOB_CONCURRENCY > 0
        ? imageWorker({
            connection: base.redis,
            prefix: config.REDIS_PREFIX,
            concurrency: config.IMAGE_JOB_CONCURRENCY,
            images,
            uploads,
            products,
            logger: base.log,
          })
        : null,
    cache,
    cacheInvalidation: startCacheInvalidation(base, cache),
    catalogueChanged() {
      cache.invalidate();
      base.eventsWritten();
    },
  };
}
