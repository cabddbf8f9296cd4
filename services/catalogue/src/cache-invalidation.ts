import { TruckingFeeChanged } from '@decor/contracts';
import {
  type BaseContext,
  type BroadcastInvalidation,
  type KitLogger,
  startBroadcastInvalidation,
} from '@decor/kit';
import type { ResponseCache } from './cache';

/** Catalogue events that change no cached answer (the trucking fee is never cached). */
const NOT_CACHED = new Set<string>([TruckingFeeChanged.type]);

export type CacheInvalidation = BroadcastInvalidation;

/**
 * Every instance must hear every catalogue event, so each reads the catalogue topic in a consumer
 * group of its own and clears its cache on any event but the trucking fee's (the kit's broadcast
 * invalidation, services/kit/src/cache/broadcast-invalidation.ts, says why that is enough). It does
 * not hold up start-up or /readyz: if it cannot read the topic, answers are at most
 * CATALOGUE_CACHE_TTL_MS old.
 */
export function startCacheInvalidation(ctx: BaseContext, cache: ResponseCache): CacheInvalidation {
  return startBroadcastInvalidation({
    name: ctx.name,
    kafka: ctx.kafka,
    topic: ctx.topic('catalogue'),
    logger: ctx.log as KitLogger,
    ignore: (type) => NOT_CACHED.has(type),
    onInvalidate: () => cache.invalidate(),
  });
}
