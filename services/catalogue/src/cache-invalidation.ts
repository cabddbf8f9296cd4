import { randomUUID } from 'node:crypto';
import { TruckingFeeChanged } from '@decor/contracts';
import { type BaseContext, EVENT_HEADERS } from '@decor/kit';
import type { Consumer } from 'kafkajs';
import type { ResponseCache } from './cache';

/** Catalogue events that change no cached answer (the trucking fee is never cached). */
const NOT_CACHED = new Set<string>([TruckingFeeChanged.type]);

export interface CacheInvalidation {
  groupId: string;
  /** The last event that cleared the cache (for logs and tests). */
  last?: { type: string; correlationId: string };
  /** Settles once this instance reads the catalogue topic (or gave up trying; the TTL then applies). */
  listening: Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Every instance must hear every catalogue event, so each reads the topic in a consumer group of
 * its own (the kit's consumers share one group per service: each event would reach only one
 * instance). It starts at the newest offset, since the cache starts empty, keeps no state, and
 * deletes its group on shutdown so groups do not pile up in Kafka. It does not hold up start-up
 * or /readyz: if it cannot join, answers are at most CATALOGUE_CACHE_TTL_MS old.
 */
export function startCacheInvalidation(ctx: BaseContext, cache: ResponseCache): CacheInvalidation {
  const groupId = `${ctx.name}.cache.${randomUUID()}`;
  const log = ctx.log.child({ component: 'cache-invalidation', groupId });
  // A short fetch wait: shutdown waits for the fetch in flight, and an idle topic holds it that long.
  const consumer: Consumer = ctx.kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 500,
  });
  const handle: CacheInvalidation = { groupId, listening: Promise.resolve(false), stop };
  handle.listening = (async () => {
    await consumer.connect();
    await consumer.subscribe({ topic: ctx.topic('catalogue'), fromBeginning: false });
    // run() resolves once the group is joined and partitions are assigned.
    await consumer.run({
      eachMessage: async ({ message }) => {
        // Any other type, also one added later, clears the cache: stale answers cost more than misses.
        const type = message.headers?.[EVENT_HEADERS.type]?.toString() ?? '';
        if (NOT_CACHED.has(type)) return;
        cache.invalidate();
        const correlationId = message.headers?.[EVENT_HEADERS.correlationId]?.toString() ?? '';
        handle.last = { type, correlationId };
      },
    });
    return true;
  })().catch((err: unknown) => {
    log.error({ err }, 'cannot read catalogue events; cached answers now expire by TTL only');
    return false;
  });

  return handle;

  async function stop() {
    await handle.listening;
    await consumer.disconnect().catch(() => {});
    const admin = ctx.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([groupId]);
    } catch (err) {
      log.debug({ err }, 'cache group not deleted (Kafka expires empty groups anyway)');
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }
}
