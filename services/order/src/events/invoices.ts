import { InvoiceCreated } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { OrderContext } from '../context';
import { closeInvoicedEstimate } from '../store/orders';

/**
 * Our own InvoiceCreated: the invoice's estimate becomes Closed with hasInvoice. The request that
 * created the invoice usually did it already (then `decide` finds nothing to change); this handler
 * is what repairs it after a crash between the two writes (see `closeInvoicedEstimate`).
 */
export function invoiceEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return eventHandler(InvoiceCreated, async ({ payload, correlationId }) => {
    const estimateId = payload.order.estimateId;
    if (!estimateId) return;
    await closeInvoicedEstimate(ctx, estimateId, payload.actor, correlationId);
  });
}
