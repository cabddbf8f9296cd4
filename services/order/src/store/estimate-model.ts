import type { DepositOnVoid, OrderType, SubRental } from '@decor/contracts';
import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema, type Types } from 'mongoose';
import {
  type AcceptanceRecord,
  type Deposit,
  type Offer,
  type PendingAuthorisation,
  stateOf,
} from '../domain/acceptance';
import { DETAIL_FIELDS, type EstimateDetails } from '../domain/details';
import { type EstimateLine, ORDER_STATUSES, type OrderStatus } from '../domain/estimate';
import type { OrderRecord } from '../domain/view';

/** Spec §3 Order (an estimate or an invoice), money in cents, plus what only the server keeps. */
export interface Estimate extends OutboxFields {
  _id: Types.ObjectId;
  docNumber: string;
  userId: string;
  cartId: string;
  /** Invoices only: the estimate it was created from (one invoice per estimate: unique index). */
  estimateId?: string;
  /**
   * `<userId>:<Idempotency-Key>` when the submission carried the header. One field rather than a
   * compound (userId, key) index: a sparse compound index still holds every document that has a
   * userId, so two submissions WITHOUT a key would collide on (userId, null).
   */
  idempotencyScope?: string;
  status: OrderStatus;
  hasBeenModified: boolean;
  hasInvoice: boolean;
  isInQbo: boolean;
  qboId: string | null;
  syncToken: string | null;
  details: EstimateDetails;
  lines: EstimateLine[];
  subtotalCents: number;
  truckingCents: number;
  taxCents: number;
  totalCents: number;
  /** The customer as known at submission (users projection). */
  customer: { email: string; displayName: string; ownCompany: string | null; qboId: string | null };
  /** +1 with every change: guards each write (with the status) and orders the events' states. */
  revision: number;
  editedRevision?: number;
  /** Staff's last sub-rental confirmation (domain/view.ts). */
  subRental?: SubRental | null;
  /** Issue 30, estimates only: the offer made when it was sent, the signed acceptance, its deposit. */
  offer?: Offer | null;
  acceptance?: AcceptanceRecord | null;
  /** Signatures a later change voided (the proof of what was signed then stays). */
  earlierAcceptances?: AcceptanceRecord[];
  deposit?: Deposit | null;
  /** A captured deposit: refunded or kept when its invoice is voided (staff's choice, store/deposits.ts). */
  depositOnVoid?: DepositOnVoid | null;
  /** Deposit authorisations asked of the provider and not yet recorded (domain/acceptance.ts). */
  pendingAuthorisations?: PendingAuthorisation[];
  /** Attempts whose authorisation was cancelled: the next one asks the provider under a new key. */
  acceptanceAttempt?: number;
  /** What a change after the signature changed (the signature is void). */
  voidedChanges?: string[] | null;
  createdAt: Date;
  updatedAt: Date;
}

const detailsSchema = new Schema<EstimateDetails>(
  Object.fromEntries(DETAIL_FIELDS.map((field) => [field, { type: String }])),
  { _id: false },
);

const lineSchema = new Schema<EstimateLine>(
  {
    productId: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    qty: { type: Number, required: true, min: 1 },
    priceCents: { type: Number, required: true, min: 0 },
    totalCents: { type: Number, required: true, min: 0 },
    qboId: { type: String, default: null },
  },
  { _id: false },
);

function orderSchema(orderType: OrderType) {
  return new Schema<Estimate>(
    {
      docNumber: { type: String, required: true },
      userId: { type: String, required: true },
      cartId: { type: String, required: true },
      ...(orderType === 'invoice' ? { estimateId: { type: String, required: true } } : {}),
      idempotencyScope: { type: String },
      status: { type: String, enum: ORDER_STATUSES, required: true },
      hasBeenModified: { type: Boolean, default: false },
      hasInvoice: { type: Boolean, default: false },
      isInQbo: { type: Boolean, default: false },
      qboId: { type: String, default: null },
      syncToken: { type: String, default: null },
      details: { type: detailsSchema, required: true },
      lines: { type: [lineSchema], default: [] },
      subtotalCents: { type: Number, required: true, min: 0 },
      truckingCents: { type: Number, required: true, min: 0 },
      taxCents: { type: Number, required: true, min: 0 },
      totalCents: { type: Number, required: true, min: 0 },
      customer: {
        type: new Schema(
          {
            email: { type: String, required: true },
            displayName: { type: String, default: '' },
            ownCompany: { type: String, default: null },
            qboId: { type: String, default: null },
          },
          { _id: false },
        ),
        required: true,
      },
      revision: { type: Number, default: 0, min: 0 },
      editedRevision: { type: Number, default: 0, min: 0 },
      // Written whole with the booking it confirms; never queried, so kept as it came.
      subRental: { type: Schema.Types.Mixed, default: null },
      // Issue 30: written whole by their guarded writes (store/acceptance.ts).
      offer: { type: Schema.Types.Mixed, default: undefined },
      acceptance: { type: Schema.Types.Mixed, default: undefined },
      earlierAcceptances: { type: [Schema.Types.Mixed], default: undefined },
      deposit: { type: Schema.Types.Mixed, default: undefined },
      depositOnVoid: { type: String, default: undefined },
      pendingAuthorisations: { type: [Schema.Types.Mixed], default: undefined },
      acceptanceAttempt: { type: Number, default: undefined },
      voidedChanges: { type: [String], default: undefined },
    },
    { timestamps: true },
  );
}

/**
 * Issue 31: the orders lists (routes/orders.ts) page newest first — sort { createdAt: -1, _id: -1 },
 * the _id tie-break of the kit's list query — with at most one equality filter the screens send
 * (a customer's own, a status, modified ones). Each such list reads its page from one of these in
 * order and counts its total from the same entries, on MongoDB and on the embedded server (whose
 * sorted indexes, infra/stack/mongo/Launcher.java, follow these declarations). A DocNumber prefix
 * search reads the unique docNumber index's range (the kit sends a case-sensitive regex for a
 * prefix without letters, which MongoDB bounds). Ascending pages read the same indexes backwards.
 * Checked on MongoDB by services/order/test/order-list-indexes.test.ts (DECOR_INFRA=containers).
 */
export const LIST_INDEXES = [
  { createdAt: -1, _id: -1 },
  { status: 1, createdAt: -1, _id: -1 },
  { userId: 1, createdAt: -1, _id: -1 },
  { hasBeenModified: 1, createdAt: -1, _id: -1 },
] as const;

function listIndexes(schema: Schema<Estimate>): void {
  for (const keys of LIST_INDEXES) schema.index(keys);
}

const estimateSchema = orderSchema('estimate');
// One estimate per cart: a second submission of the same cart (double click, two tabs) is refused.
estimateSchema.index({ cartId: 1 }, { unique: true });
estimateSchema.index({ idempotencyScope: 1 }, { unique: true, sparse: true });
estimateSchema.index({ docNumber: 1 }, { unique: true });
listIndexes(estimateSchema);
// Issue 30: the provider's webhooks find the estimate by its deposit; the sweeper, dangling authorisations.
estimateSchema.index({ 'deposit.intentId': 1 }, { sparse: true });
estimateSchema.index({ 'pendingAuthorisations.at': 1 }, { sparse: true });
// The offers' expiry sweep and the orders list's acceptance filter (Open estimates by their offer's end).
estimateSchema.index({ status: 1, 'offer.expiresAt': 1 });
estimateSchema.plugin(outboxPlugin);

export type EstimateModel = Model<Estimate>;

export function estimateModel(connection: Connection): EstimateModel {
  return connection.model<Estimate>('Estimate', estimateSchema, 'estimates');
}

const invoiceSchema = orderSchema('invoice');
/**
 * One invoice per estimate: of two racing requests (with or without the same Idempotency-Key),
 * one insert wins and the other finds the winner.
 */
invoiceSchema.index({ estimateId: 1 }, { unique: true });
invoiceSchema.index({ idempotencyScope: 1 }, { unique: true, sparse: true });
// The estimate's DocNumber (one invoice per estimate, so unique too).
invoiceSchema.index({ docNumber: 1 }, { unique: true });
listIndexes(invoiceSchema);
invoiceSchema.plugin(outboxPlugin);

export type InvoiceModel = Model<Estimate>;

export function invoiceModel(connection: Connection): InvoiceModel {
  return connection.model<Estimate>('Invoice', invoiceSchema, 'invoices');
}

/** A stored estimate or invoice as the domain sees it. */
export function orderRecord(doc: Estimate, orderType: OrderType): OrderRecord {
  return { ...estimateRecord(doc), orderType, estimateId: doc.estimateId ?? null };
}

export function estimateRecord(doc: Estimate): OrderRecord {
  const record = plainRecord(doc);
  if (!doc.offer && !doc.acceptance) return record;
  const facts = {
    offer: doc.offer ?? null,
    acceptance: doc.acceptance ?? null,
    deposit: doc.deposit ?? null,
    voidedChanges: doc.voidedChanges?.length ? doc.voidedChanges : null,
  };
  return {
    ...record,
    acceptance: {
      state: stateOf(record, facts, new Date()),
      depositState: doc.deposit?.state ?? null,
      expiresAt: doc.offer?.expiresAt ? new Date(doc.offer.expiresAt).toISOString() : null,
    },
  };
}

function plainRecord(doc: Estimate): OrderRecord {
  return {
    orderType: 'estimate',
    estimateId: null,
    revision: doc.revision ?? 0,
    editedRevision: doc.editedRevision ?? 0,
    id: doc._id.toString(),
    docNumber: doc.docNumber,
    userId: doc.userId,
    cartId: doc.cartId,
    status: doc.status,
    hasBeenModified: doc.hasBeenModified ?? false,
    hasInvoice: doc.hasInvoice ?? false,
    isInQbo: doc.isInQbo ?? false,
    qboId: doc.qboId ?? null,
    syncToken: doc.syncToken ?? null,
    details: doc.details ?? {},
    lines: (doc.lines ?? []).map((line) => ({ ...line, qboId: line.qboId ?? null })),
    subtotalCents: doc.subtotalCents,
    truckingCents: doc.truckingCents,
    taxCents: doc.taxCents,
    totalCents: doc.totalCents,
    customer: {
      email: doc.customer.email,
      displayName: doc.customer.displayName ?? '',
      ownCompany: doc.customer.ownCompany ?? null,
      qboId: doc.customer.qboId ?? null,
    },
    createdAt: doc.createdAt,
    subRental: doc.subRental ?? null,
    offerLapsedAtEdit: doc.offer?.lapsed?.editedRevision ?? null,
  };
}
