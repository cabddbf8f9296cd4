import type { Redis } from 'ioredis';
import type { QboEntity } from './client';

/**
 * Every Customer of the connected company, kept in memory for a short while for the import dialog:
 * reading 5,000 Customers costs five 1,000-row queries through the shared rate limiter (the sync's
 * budget too) and a few seconds, while staff search and page through the same list many times a
 * minute. An entry is dropped when its age passes `ttlMs`, when staff ask for a refresh, and when
 * any process of this service writes a Customer (a generation counter in Redis, read on each use:
 * one GET), so the dialog never misses what the site itself put into QuickBooks. What changes in
 * QuickBooks by other hands shows after `ttlMs` or a Refresh.
 */
export interface CustomerList {
  read(realmId: string, opts?: { refresh?: boolean }): Promise<{ rows: QboEntity[]; readAt: Date }>;
  /** A Customer was (or may have been) written: every process reads QuickBooks again next time. */
  invalidate(): Promise<void>;
}

interface Entry {
  realmId: string;
  generation: string;
  readAt: Date;
  rows: QboEntity[];
}

export function customerList(deps: {
  redis: Redis;
  redisPrefix: string;
  ttlMs: number;
  /** Reads every Customer of the connected company from QuickBooks. */
  query: () => Promise<QboEntity[]>;
}): CustomerList {
  const key = `${deps.redisPrefix}:qbo-customer-list:generation`;
  let entry: Entry | undefined;
  // One read at a time per realm and generation: dialogs opened together share it.
  const reading = new Map<string, Promise<Entry>>();

  const load = (realmId: string, generation: string): Promise<Entry> => {
    const id = `${realmId}/${generation}`;
    let pending = reading.get(id);
    if (!pending) {
      pending = deps
        .query()
        .then((rows) => {
          entry = { realmId, generation, readAt: new Date(), rows };
          return entry;
        })
        .finally(() => reading.delete(id));
      reading.set(id, pending);
    }
    return pending;
  };

  return {
    async read(realmId, opts = {}) {
      const generation = (await deps.redis.get(key)) ?? '0';
      const fresh =
        entry &&
        !opts.refresh &&
        entry.realmId === realmId &&
        entry.generation === generation &&
        Date.now() - entry.readAt.getTime() < deps.ttlMs;
      const { rows, readAt } = fresh && entry ? entry : await load(realmId, generation);
      return { rows, readAt };
    },
    async invalidate() {
      entry = undefined;
      await deps.redis.incr(key);
    },
  };
}
