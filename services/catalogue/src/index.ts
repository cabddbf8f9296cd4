/** The package entry: what other workspaces (the gateway's and the browser journeys' stacks, benches) may use; main.ts starts the process. */
export { catalogueService } from './app';
export { catalogueConfigSchema, loadCatalogueConfig } from './config';
export type { CatalogueContext } from './context';
export { DEMO_PRODUCTS } from './demo-data';
export { saveProduct } from './store/writes';
