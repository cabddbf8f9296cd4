import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { CatalogueConfig } from './config';
import { buildCatalogueContext, type CatalogueContext } from './context';
import { seedDemoCatalogue } from './demo-data';
import { accountingEventHandlers } from './events/accounting';
import { categoryRoutes } from './routes/categories';
import { categoryTurnaroundRoutes } from './routes/category-turnaround';
import { productImageRoutes } from './routes/product-images';
import { productRoutes } from './routes/products';
import { truckingRoutes } from './routes/trucking';
import { ensureTruckingFee } from './store/writes';

export type { CatalogueContext } from './context';

export async function registerRoutes(app: ServiceApp, ctx: CatalogueContext): Promise<void> {
  await app.register(async (scope) => categoryRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => categoryTurnaroundRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => productRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => productImageRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => truckingRoutes(scope as ServiceApp, ctx));
}

/** The catalogue service: categories, products, images and the trucking fee. */
export function catalogueService(
  config: CatalogueConfig,
): ServiceDefinition<CatalogueConfig, CatalogueContext> {
  return {
    name: 'catalogue',
    config,
    publishes: ['catalogue'],
    build: buildCatalogueContext,
    outbox: (ctx) => [ctx.products, ctx.categories, ctx.trucking],
    consumers: (ctx) => [
      { name: 'accounting', topics: ['accounting'], handlers: accountingEventHandlers(ctx) },
    ],
    routes: registerRoutes,
    onReady: async (ctx) => {
      await ensureTruckingFee(ctx);
      await seedDemoCatalogue(ctx);
    },
    // Closed in reverse order: the worker stops before the queue and the S3 client it uses.
    closers: (ctx) => [
      { name: 's3 client', close: () => ctx.images.close() },
      { name: 'image job queue', close: () => ctx.imageQueue.close() },
      ...(ctx.imageWorker
        ? [
            {
              name: 'image job worker',
              close: () => (ctx.imageWorker as NonNullable<typeof ctx.imageWorker>).close(),
            },
          ]
        : []),
      { name: 'cache invalidation', close: () => ctx.cacheInvalidation.stop() },
    ],
  };
}
