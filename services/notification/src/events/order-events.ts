import {
  EstimateStatusChanged,
  EstimateSubmitted,
  EstimateUpdated,
  InvoiceCompleted,
  InvoiceCreated,
  InvoiceStatusChanged,
  InvoiceUpdated,
  ORDER_LIFECYCLE_EVENTS,
} from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { estimateReceivedEmail, newEstimateStaffEmail } from '../domain/estimate-emails';
import { type OrderLifecycleEvent, orderEventEmails } from '../domain/order-emails';
import { enqueueEmail } from '../jobs/email-queue';

export function orderEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  // Each e-mail of an event has its own job id, `<eventId>.<recipient>`: a redelivery (or a retry
  // after one of two was queued) adds none again, and two instances never queue one twice.
  const lifecycle = async (event: { id: string } & OrderLifecycleEvent) => {
    for (const { recipient, email } of orderEventEmails(ctx.brand, ctx.config.STAFF_EMAIL, event))
      await enqueueEmail(ctx.emails, `${event.id}.${recipient}`, email);
  };
  return {
    ...eventHandler(EstimateSubmitted, async (event) => {
      await enqueueEmail(ctx.emails, `${event.id}.customer`, estimateReceivedEmail(ctx.brand, event.payload));
      await enqueueEmail(
        ctx.emails,
        `${event.id}.staff`,
        newEstimateStaffEmail(ctx.brand, ctx.config.STAFF_EMAIL, event.payload),
      );
    }),
    ...eventHandler(EstimateUpdated, (e) =>
      lifecycle({ id: e.id, type: 'EstimateUpdated', payload: e.payload }),
    ),
    ...eventHandler(InvoiceUpdated, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceUpdated', payload: e.payload }),
    ),
    ...eventHandler(EstimateStatusChanged, (e) =>
      lifecycle({ id: e.id, type: 'EstimateStatusChanged', payload: e.payload }),
    ),
    ...eventHandler(InvoiceStatusChanged, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceStatusChanged', payload: e.payload }),
    ),
    ...eventHandler(InvoiceCreated, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceCreated', payload: e.payload }),
    ),
    ...eventHandler(InvoiceCompleted, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceCompleted', payload: e.payload }),
    ),
  };
}

/**
 * The `orders` consumer: whose each order is (for POST /send/orderUpdate). Its own consumer group,
 * so it reads the order topic from its beginning when first deployed, and a failed e-mail never
 * keeps an owner from being known.
 */
export function orderOwnerHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  const handlers: Record<string, EventHandler> = {
    ...eventHandler(EstimateSubmitted, async ({ payload }) =>
      ctx.orderOwners.remember('estimate', payload.estimateId, payload.userId),
    ),
  };
  for (const contract of ORDER_LIFECYCLE_EVENTS) {
    Object.assign(
      handlers,
      eventHandler(contract, async ({ payload }) => {
        const { order } = payload;
        await ctx.orderOwners.remember(order.orderType, order.id, order.userId);
        // An invoice names its estimate, which is the same customer's.
        if (order.orderType === 'invoice' && order.estimateId)
          await ctx.orderOwners.remember('estimate', order.estimateId, order.userId);
      }),
    );
  }
  return handlers;
}
