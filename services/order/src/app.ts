import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { OrderConfig } from './config';
import { buildOrderContext, CONSUMERS, type OrderContext, SERVICE_NAME } from './context';
import { accountingEventHandlers } from './events/accounting';
import { cartEventHandlers, truckingFeeEventHandlers, userEventHandlers } from './events/projections';
import { estimateRoutes } from './routes/estimates';
import { ensureDocNumberCounter } from './store/writes';

export type { OrderContext } from './context';

export async function registerRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  await app.register(async (scope) => estimateRoutes(scope as ServiceApp, ctx));
}

/** The order service: estimates (invoices come with the back-office issues). */
export function orderService(config: OrderConfig): ServiceDefinition<OrderConfig, OrderContext> {
  return {
    name: SERVICE_NAME,
    config,
    publishes: ['order'],
    build: buildOrderContext,
    outbox: (ctx) => [ctx.estimates],
    consumers: (ctx) => [
      { name: CONSUMERS.carts.name, topics: [CONSUMERS.carts.topic], handlers: cartEventHandlers(ctx) },
      {
        name: CONSUMERS.truckingFee.name,
        topics: [CONSUMERS.truckingFee.topic],
        handlers: truckingFeeEventHandlers(ctx),
      },
      { name: CONSUMERS.users.name, topics: [CONSUMERS.users.topic], handlers: userEventHandlers(ctx) },
      {
        name: CONSUMERS.accounting.name,
        topics: [CONSUMERS.accounting.topic],
        handlers: accountingEventHandlers(ctx),
      },
    ],
    routes: registerRoutes,
    onReady: ensureDocNumberCounter,
    closers: (ctx) => [{ name: 'kafka admin', close: () => ctx.kafkaAdmin.disconnect() }],
  };
}
