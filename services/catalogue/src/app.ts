import type { BaseContext, ServiceDefinition } from '@decor/kit';
import type { CatalogueConfig } from './config';

export type CatalogueContext = BaseContext<CatalogueConfig>;

/** The catalogue service: categories, products, images and the trucking fee. Its domain arrives with the storefront and back-office issues. */
export function catalogueService(
  config: CatalogueConfig,
): ServiceDefinition<CatalogueConfig, CatalogueContext> {
  return {
    name: 'catalogue',
    config,
    publishes: ['catalogue'],
    build: (base) => base,
    routes: async () => {},
  };
}
