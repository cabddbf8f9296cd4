/** The package entry for other workspaces' tests and benches; main.ts starts the process. */
export { buildGateway } from './app';
export type { CatalogueCache } from './catalogue-cache';
export { gatewayConfigSchema, loadGatewayConfig, parseGatewayConfig } from './config';
export { DOCS_STAFF_ONLY } from './docs';
export { ROUTES } from './routing-table';
