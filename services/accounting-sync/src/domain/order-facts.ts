import type { LifecycleFacts, OrderType } from '@decor/contracts';

/** An order's sync record as the order events left it (`data`) and what this service knows itself. */
export interface OrderRecordView {
  kind: OrderType;
  data: Record<string, unknown>;
  qboId: string | null;
}

/**
 * The lifecycle's facts of an order, from this service's projection of the order events (spec §4's
 * tables decide from these, `permission` in contracts). The order is in QuickBooks when its events
 * say so OR when this service already wrote it there (its outcome may not have come back yet).
 * A record stored before the projection kept the status is taken as Pending, or Open once written.
 */
export function orderFacts(rec: OrderRecordView): LifecycleFacts {
  const data = rec.data as {
    status?: string;
    isInQbo?: boolean;
    hasBeenModified?: boolean;
    hasInvoice?: boolean;
    details?: { eventDate?: string };
  };
  return {
    orderType: rec.kind,
    status: data.status ?? (rec.qboId ? 'Open' : 'Pending'),
    isInQbo: data.isInQbo === true || rec.qboId !== null,
    hasBeenModified: data.hasBeenModified === true,
    hasInvoice: data.hasInvoice === true,
    details: { eventDate: data.details?.eventDate ?? null },
  };
}
