import { EstimateStatusChanged, EstimateUpdated, InvoiceCreated } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { OrderContext } from '../context';
import { captureDeposit, releaseDeposit, voidSignature } from '../store/deposits';

/**
 * Our own order events, for accepted estimates (issue 30): an invoice made from one captures its
 * deposit (DepositCaptured, for accounting-sync), voiding one releases it, and any edit of one
 * voids its signature. Each is idempotent (the provider's calls and the guarded writes), so a
 * redelivery does nothing more; a provider outage throws and the event is delivered again.
 */
export function acceptanceEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return {
    ...eventHandler(InvoiceCreated, async ({ payload, correlationId }) => {
      const { estimateId, id, totalCents } = payload.order;
      if (estimateId) await captureDeposit(ctx, estimateId, { id, totalCents }, correlationId);
    }),
    ...eventHandler(EstimateStatusChanged, async ({ payload, correlationId }) => {
      if (payload.order.status === 'Voided') await releaseDeposit(ctx, payload.order.id, correlationId);
    }),
    ...eventHandler(EstimateUpdated, async ({ payload }) => {
      await voidSignature(ctx, payload.order.id, payload.changed);
    }),
  };
}
