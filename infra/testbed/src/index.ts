/**
 * `@decor/testbed`: the product composed from its services — in this process for the tests that
 * cross a service boundary (this package's test/, the browser journeys), and as processes for the
 * fault suite (src/chaos.ts, `npm run chaos`) and the bench (`@decor/testbed/processes`, kept out of
 * this entry so that importing it loads no service). No service depends on it, and no service
 * depends on another: the tests that need two of them live here.
 */
export { startGateway, startInProcess, startWorkerInProcess } from './product';
export * from './stack';
export * from './storefront-stack';
