/**
 * The storefront's public screens for the server renderer (issue 17, frontends/shell/src/server): the
 * same screens the remote exposes, imported as code where there is no federation runtime.
 */
export { default as Inventory } from './features/inventory/routes';
