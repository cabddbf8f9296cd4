/**
 * Pure mappings from the site's records to QuickBooks Online documents (no I/O): one function per
 * document, plus the helpers they share. The sync resolves the QuickBooks refs first, maps, and
 * compares contentHash with the last write to skip an unchanged one.
 */
export * from './documents/content-hash';
export * from './documents/customers';
export * from './documents/items';
export * from './documents/names';
export * from './documents/payments';
export * from './documents/sales';
export * from './documents/types';
