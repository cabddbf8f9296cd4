import { type BaseContext, type JobWorker, registerQueueMetrics, waitForCatchUp } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { Admin } from 'kafkajs';
import type { AccountingSyncConfig } from './config';
import type { Ref } from './domain/documents';
import { type SyncJob, syncQueue } from './jobs/sync-queue';
import { syncWorker } from './jobs/sync-worker';
import { type QboApi, qboApi } from './qbo/client';
import { type CustomerList, customerList } from './qbo/customer-list';
import { QboFault } from './qbo/faults';
import { type RateLimiter, redisRateLimiter } from './qbo/rate-limit';
import { type QboSessions, qboSessions } from './qbo/session';
import { type TokenCipher, tokenCipher } from './qbo/token-cipher';
import {
  type QboConnectionModel,
  qboConnectionModel,
  type UsedConnectStateModel,
  usedConnectStateModel,
} from './store/connection-model';
import { type SyncRecordModel, syncRecordModel } from './store/record-model';

export const SERVICE_NAME = 'accounting-sync';

/** How long the import dialog may list QuickBooks' Customers from memory (its Refresh reads now). */
const CUSTOMER_LIST_TTL_MS = 2 * 60_000;

export interface AccountingSyncContext extends BaseContext<AccountingSyncConfig> {
  connections: QboConnectionModel;
  usedStates: UsedConnectStateModel;
  records: SyncRecordModel;
  cipher: TokenCipher;
  sessions: QboSessions;
  limiter: RateLimiter;
  api: QboApi;
  /** QuickBooks' Customers for the import dialog, read at most every few minutes (cleared by writes). */
  customers: CustomerList;
  syncQueue: Queue<SyncJob>;
  /** This process's job worker (none with QBO_WORKER_CONCURRENCY=0). */
  worker: JobWorker<SyncJob> | null;
  serviceItem(name: string): Promise<Ref>;
  kafkaAdmin: Admin;
  /**
   * Waits (at most ~3 s) until the orders consumer has handled every order event on the topic now,
   * so a staff write decided from the projection sees an edit made just before it.
   */
  catchUpOrders(): Promise<boolean>;
}

export async function buildAccountingSyncContext(
  base: BaseContext<AccountingSyncConfig>,
): Promise<AccountingSyncContext> {
  const { config } = base;
  const kafkaAdmin = base.kafka.admin();
  await kafkaAdmin.connect();
  const connections = qboConnectionModel(base.connection);
  const records = syncRecordModel(base.connection);
  const cipher = tokenCipher(config.QBO_TOKEN_KEY);
  const sessions = qboSessions({
    connections,
    redis: base.redis,
    redisPrefix: config.REDIS_PREFIX,
    cipher,
    oauth: config,
    log: base.log,
    eventsWritten: base.eventsWritten,
  });
  // Aim under QuickBooks' limit, and catch up on at most half the headroom (≤ 10 slots).
  const aim = config.QBO_RATE_LIMIT_PER_MINUTE * config.QBO_RATE_LIMIT_SHARE;
  const headroom = config.QBO_RATE_LIMIT_PER_MINUTE - aim;
  const limiter = redisRateLimiter(
    base.redis,
    config.REDIS_PREFIX,
    () => aim,
    () => Math.min(10, headroom / 2),
  );
  const direct = qboApi({ config, sessions, limiter });
  const customers = customerList({
    redis: base.redis,
    redisPrefix: config.REDIS_PREFIX,
    ttlMs: CUSTOMER_LIST_TTL_MS,
    query: () => direct.query('Customer'),
  });
  // Every Customer this service writes (sync jobs, adoption, tests) clears the import dialog's copy,
  // failed writes too: a timed-out create may still have landed.
  const clearing =
    (write: QboApi['create']): QboApi['create'] =>
    async (entity, doc, requestId) => {
      try {
        return await write(entity, doc, requestId);
      } finally {
        if (entity === 'Customer') await customers.invalidate();
      }
    };
  const api: QboApi = { ...direct, create: clearing(direct.create), update: clearing(direct.update) };
  const queue = syncQueue(base.redis, config.REDIS_PREFIX, base.log);
  registerQueueMetrics(base.metrics, [queue]);

  // Trucking and Labor lines need a QuickBooks item each: found by name, created when missing.
  const serviceItems = new Map<string, Promise<Ref>>();
  const findOrCreateItem = async (name: string): Promise<Ref> => {
    const where = `where Name = '${name.replace(/'/g, "\\'")}'`;
    const [found] = await api.query('Item', where);
    if (found) return { value: String(found.Id), name };
    try {
      const made = await api.create(
        'Item',
        { Name: name, Type: 'Service' },
        `decor-item-${name}`.slice(0, 50),
      );
      return { value: String(made.Id), name };
    } catch (err) {
      if (!(err instanceof QboFault) || err.kind !== 'duplicate') throw err;
      const [existing] = await api.query('Item', `${where} and Active IN (true, false)`);
      if (!existing) throw err;
      return { value: String(existing.Id), name };
    }
  };
  const serviceItem = (name: string) => {
    let item = serviceItems.get(name);
    if (!item) {
      item = findOrCreateItem(name);
      serviceItems.set(name, item);
      item.catch(() => serviceItems.delete(name));
    }
    return item;
  };

  const ctx: AccountingSyncContext = {
    ...base,
    connections,
    usedStates: usedConnectStateModel(base.connection),
    records,
    cipher,
    sessions,
    limiter,
    api,
    customers,
    syncQueue: queue,
    worker: null,
    serviceItem,
    kafkaAdmin,
    catchUpOrders: () =>
      waitForCatchUp({
        admin: kafkaAdmin,
        connection: base.connection,
        groupId: `${config.KAFKA_TOPIC_PREFIX}.${SERVICE_NAME}.orders`,
        topic: base.topic('order'),
      }),
  };
  if (config.QBO_WORKER_CONCURRENCY > 0) {
    ctx.worker = syncWorker({
      records,
      api,
      queue,
      redis: base.redis,
      redisPrefix: config.REDIS_PREFIX,
      concurrency: config.QBO_WORKER_CONCURRENCY,
      logger: base.log,
      eventsWritten: base.eventsWritten,
      serviceItem,
      truckingItemName: config.QBO_TRUCKING_ITEM,
      laborItemName: config.QBO_LABOR_ITEM,
    });
  }
  return ctx;
}
