/**
 * The catalogue's read cache is the kit's ResponseCache (services/kit/src/cache/response-cache.ts:
 * why it stays correct is explained there). Re-exported so the service's code and tests name it here.
 */
export { type CachedAnswer, ResponseCache } from '@decor/kit';
