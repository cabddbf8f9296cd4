import { Type } from '@sinclair/typebox';
import { defineEvent } from './envelope';

/**
 * Events of the accounting aggregate (accounting-sync service). They never carry a token: the
 * QuickBooks connection's secrets stay inside the accounting-sync service.
 */

/** The QuickBooks connection was made, renewed after a loss, or lost (revoked, refresh refused). */
export const QboConnectionChanged = defineEvent(
  'QboConnectionChanged',
  1,
  'accounting',
  Type.Object({
    connected: Type.Boolean(),
    realmId: Type.Union([Type.String(), Type.Null()]),
    companyName: Type.Union([Type.String(), Type.Null()]),
    /** Why it changed, for people: 'connected', 'revoked', 'refresh refused', … */
    reason: Type.String(),
  }),
);

export const SYNCED_RECORD_KINDS = [
  'company',
  'customer',
  'category',
  'product',
  'estimate',
  'invoice',
  /** A deposit taken for an invoice (issue 30): a QuickBooks Payment applied to it; id = PaymentIntent. */
  'payment',
  /** That deposit refunded (staff voided the invoice and chose refund): a RefundReceipt; id = PaymentIntent. */
  'refund',
] as const;
export type SyncedRecordKind = (typeof SYNCED_RECORD_KINDS)[number];

/**
 * What a sync did in QuickBooks. `unchanged`: QuickBooks already held this content (the site changed
 * only fields its document does not show), nothing was written, and the sync succeeded all the same.
 */
export const QBO_OUTCOMES = [
  'created',
  'updated',
  'unchanged',
  'sent',
  'voided',
  'rejected',
  'deactivated',
] as const;
export type QboOutcome = (typeof QBO_OUTCOMES)[number];

/**
 * A record of another service reached QuickBooks (created, updated, sent, voided, …): the owning
 * service records the QuickBooks id and SyncToken (an estimate turns Open once it is in QuickBooks).
 */
export const QboRecordSynced = defineEvent(
  'QboRecordSynced',
  1,
  'accounting',
  Type.Object({
    kind: Type.Union(SYNCED_RECORD_KINDS.map((k) => Type.Literal(k))),
    /** The record's id in its own service (user id, company id, SKU, category id, estimate id). */
    recordId: Type.String(),
    qboId: Type.String(),
    syncToken: Type.String(),
    action: Type.Union(QBO_OUTCOMES.map((a) => Type.Literal(a))),
    /** The sync record's revision this write carried. */
    revision: Type.Integer({ minimum: 0 }),
    /**
     * Orders: the order's own revision whose content was written (OrderState.revision), so the order
     * service clears hasBeenModified only if no edit came after it.
     */
    sourceRevision: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
);

/** A sync job failed for good (a validation fault): staff see it on /admin/sync and can retry. */
export const QboSyncFailed = defineEvent(
  'QboSyncFailed',
  1,
  'accounting',
  Type.Object({
    kind: Type.Union(SYNCED_RECORD_KINDS.map((k) => Type.Literal(k))),
    recordId: Type.String(),
    message: Type.String(),
  }),
);
