import {
  EstimateAccepted,
  EstimateStatusChanged,
  EstimateUpdated,
  InvoiceCreated,
  InvoiceStatusChanged,
} from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { OrderContext } from '../context';
import { enqueueAgreement } from '../jobs/agreement-jobs';
import { captureDeposit, refundDeposit, releaseDeposit, voidSignature } from '../store/deposits';

/**
 * Our own order events, for accepted estimates (issue 30): an invoice made from one captures its
 * deposit (DepositCaptured, for accounting-sync), voiding one releases it, and any edit of one
 * voids its signature; an acceptance gets its signed agreement made (a job). Each is idempotent (the provider's calls and the guarded writes), so a
 * redelivery does nothing more; a provider outage throws and the event is delivered again.
 */
export function acceptanceEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return {
    // The signed agreement's PDF: a job per acceptance (retried apart from this topic's flow).
    ...eventHandler(EstimateAccepted, async ({ payload, correlationId }) => {
      await enqueueAgreement(ctx.agreementQueue, {
        estimateId: payload.order.id,
        acceptedAt: payload.acceptance.at,
        correlationId,
      });
    }),
    ...eventHandler(InvoiceCreated, async ({ payload, correlationId }) => {
      const { estimateId, id, totalCents } = payload.order;
      if (estimateId) await captureDeposit(ctx, estimateId, { id, totalCents }, correlationId);
    }),
    ...eventHandler(EstimateStatusChanged, async ({ payload, correlationId }) => {
      if (payload.order.status === 'Voided') await releaseDeposit(ctx, payload.order.id, correlationId);
    }),
    // A voided invoice refunds its captured deposit when staff chose so (kept otherwise).
    ...eventHandler(InvoiceStatusChanged, async ({ payload, correlationId }) => {
      const { status, estimateId } = payload.order;
      if (status === 'Voided' && estimateId) await refundDeposit(ctx, estimateId, correlationId);
    }),
    ...eventHandler(EstimateUpdated, async ({ payload, correlationId }) => {
      await voidSignature(ctx, payload.order.id, payload.changed, correlationId);
    }),
  };
}
