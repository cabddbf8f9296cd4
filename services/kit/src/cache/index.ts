export {
  type BroadcastInvalidation,
  type BroadcastInvalidationOptions,
  type InvalidatingEvent,
  startBroadcastInvalidation,
} from './broadcast-invalidation';
export { type CachedAnswer, type CacheGetOptions, ResponseCache } from './response-cache';
