import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { AccountingSyncConfig } from './config';
import { type AccountingSyncContext, buildAccountingSyncContext, SERVICE_NAME } from './context';
import { catalogueEventHandlers, orderEventHandlers, userEventHandlers } from './events/handlers';
import { connectionRoutes } from './routes/connection';
import { importUsersRoutes } from './routes/import-users';
import { queueBoardRoutes } from './routes/queue-board';
import { staffSyncRoutes } from './routes/staff-sync';
import { deadLetterRoutes, syncHealthRoutes } from './routes/sync-health';

export type { AccountingSyncContext } from './context';

export async function registerRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  await app.register(async (scope) => connectionRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => staffSyncRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => importUsersRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => syncHealthRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => deadLetterRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => queueBoardRoutes(scope as ServiceApp, ctx));
}

/**
 * The accounting-sync service: keeps users, companies, products, categories, estimates and invoices
 * in step with QuickBooks Online. It alone holds the QuickBooks tokens; every write is a BullMQ job
 * (the workers run in this process, QBO_WORKER_CONCURRENCY per instance) and its outcome travels
 * back as QboRecordSynced events.
 */
export function accountingSyncService(
  config: AccountingSyncConfig,
): ServiceDefinition<AccountingSyncConfig, AccountingSyncContext> {
  return {
    name: SERVICE_NAME,
    config,
    publishes: ['accounting'],
    build: buildAccountingSyncContext,
    outbox: (ctx) => [ctx.connections, ctx.records],
    consumers: (ctx) => [
      { name: 'users', topics: ['user'], handlers: userEventHandlers(ctx) },
      { name: 'catalogue', topics: ['catalogue'], handlers: catalogueEventHandlers(ctx) },
      { name: 'orders', topics: ['order'], handlers: orderEventHandlers(ctx) },
    ],
    routes: registerRoutes,
    closers: (ctx) => [
      ...(ctx.worker
        ? [{ name: 'qbo sync worker', close: () => (ctx.worker as NonNullable<typeof ctx.worker>).close() }]
        : []),
      { name: 'qbo sync queue', close: () => ctx.syncQueue.close() },
      { name: 'kafka admin', close: () => ctx.kafkaAdmin.disconnect() },
    ],
  };
}
