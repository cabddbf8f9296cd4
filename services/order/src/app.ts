import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { OrderConfig } from './config';
import { buildOrderContext, CONSUMERS, type OrderContext, SERVICE_NAME } from './context';
import { acceptanceEventHandlers } from './events/acceptance';
import { accountingEventHandlers } from './events/accounting';
import { invoiceEventHandlers } from './events/invoices';
import {
  cartEventHandlers,
  productEventHandlers,
  truckingFeeEventHandlers,
  userEventHandlers,
} from './events/projections';
import { startAuthorisationSweeper } from './jobs/acceptance-sweeper';
import { startHoldSweeper } from './jobs/hold-sweeper';
import { startOfferExpirySweeper } from './jobs/offer-expiry-sweeper';
import { acceptanceRoutes } from './routes/acceptance';
import { agreementRoutes } from './routes/agreement';
import { availabilityRoutes } from './routes/availability';
import { estimateRoutes } from './routes/estimates';
import { invoiceRoutes } from './routes/invoices';
import { orderReadAndUpdateRoutes } from './routes/orders';
import { paymentWebhookRoutes } from './routes/payment-webhooks';
import { ensureDocNumberCounter } from './store/writes';

export type { OrderContext } from './context';

export async function registerRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  // Each type's own routes, then the list, read and PUT both types share.
  await app.register(async (scope) => {
    await estimateRoutes(scope as ServiceApp, ctx);
    await orderReadAndUpdateRoutes(scope as ServiceApp, ctx, 'estimate');
  });
  await app.register(async (scope) => {
    await invoiceRoutes(scope as ServiceApp, ctx);
    await orderReadAndUpdateRoutes(scope as ServiceApp, ctx, 'invoice');
  });
  await app.register(async (scope) => availabilityRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => acceptanceRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => agreementRoutes(scope as ServiceApp, ctx));
  // Its own scope: the webhook reads its body as bytes (the signature is over them).
  await app.register(async (scope) => paymentWebhookRoutes(scope as ServiceApp, ctx));
}

/** Each started instance's sweeper of unconfirmed holds (jobs/hold-sweeper.ts). */
const sweepers = new WeakMap<OrderContext, { stop(): void }>();
/** … and of deposit authorisations never recorded (jobs/acceptance-sweeper.ts). */
const authorisationSweepers = new WeakMap<OrderContext, { stop(): void }>();
/** … and of offers that ended unaccepted (jobs/offer-expiry-sweeper.ts). */
const offerExpirySweepers = new WeakMap<OrderContext, { stop(): void }>();

/** The order service: estimates and invoices, their lifecycle (contracts' lifecycle.ts, domain/decide.ts) and events. */
export function orderService(config: OrderConfig): ServiceDefinition<OrderConfig, OrderContext> {
  return {
    name: SERVICE_NAME,
    config,
    publishes: ['order'],
    build: buildOrderContext,
    outbox: (ctx) => [ctx.estimates, ctx.invoices],
    consumers: (ctx) => [
      { name: CONSUMERS.carts.name, topics: [CONSUMERS.carts.topic], handlers: cartEventHandlers(ctx) },
      {
        name: CONSUMERS.truckingFee.name,
        topics: [CONSUMERS.truckingFee.topic],
        handlers: truckingFeeEventHandlers(ctx),
      },
      {
        name: CONSUMERS.products.name,
        topics: [CONSUMERS.products.topic],
        handlers: productEventHandlers(ctx),
      },
      { name: CONSUMERS.users.name, topics: [CONSUMERS.users.topic], handlers: userEventHandlers(ctx) },
      {
        name: CONSUMERS.accounting.name,
        topics: [CONSUMERS.accounting.topic],
        handlers: accountingEventHandlers(ctx),
      },
      {
        name: CONSUMERS.invoices.name,
        topics: [CONSUMERS.invoices.topic],
        handlers: invoiceEventHandlers(ctx),
      },
      {
        name: CONSUMERS.acceptance.name,
        topics: [CONSUMERS.acceptance.topic],
        handlers: acceptanceEventHandlers(ctx),
      },
    ],
    routes: registerRoutes,
    onReady: async (ctx) => {
      await ensureDocNumberCounter(ctx);
      sweepers.set(ctx, startHoldSweeper(ctx));
      authorisationSweepers.set(ctx, startAuthorisationSweeper(ctx));
      offerExpirySweepers.set(ctx, startOfferExpirySweeper(ctx));
      // Local runs and tests: the bucket may not exist yet (production buckets are made by operations).
      await ctx.agreementFiles.ensureBucket().catch((err) => {
        ctx.log.warn({ err }, 'the agreements bucket could not be checked; PDF jobs retry');
      });
    },
    closers: (ctx) => [
      { name: 'hold sweeper', close: () => sweepers.get(ctx)?.stop() },
      { name: 'authorisation sweeper', close: () => authorisationSweepers.get(ctx)?.stop() },
      { name: 'offer expiry sweeper', close: () => offerExpirySweepers.get(ctx)?.stop() },
      { name: 'kafka admin', close: () => ctx.kafkaAdmin.disconnect() },
      // Closed in reverse order: the worker stops before the queue and the S3 client it uses.
      { name: 's3 client', close: () => ctx.agreementFiles.close() },
      { name: 'agreement job queue', close: () => ctx.agreementQueue.close() },
      { name: 'agreement job worker', close: async () => ctx.agreementWorker?.close() },
    ],
  };
}
