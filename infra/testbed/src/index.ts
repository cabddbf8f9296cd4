/**
 * `@decor/testbed`: the product composed from its services for the tests that cross a service
 * boundary (this package's test/, the browser journeys). No service depends on it, and no service
 * depends on another: the tests that need two of them live here.
 */
export { startGateway, startInProcess, startWorkerInProcess } from './product';
export * from './stack';
export * from './storefront-stack';
