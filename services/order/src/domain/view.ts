import {
  type AcceptanceSummaryView,
  type EstimateDetailField,
  type OrderType,
  type SubRental,
  toDollars,
} from '@decor/contracts';
import { DETAIL_FIELDS, type EstimateDetails } from './details';
import type { EstimateLine } from './estimate';

/** A stored estimate or invoice as the domain sees it (money in cents). */
export interface OrderRecord {
  orderType: OrderType;
  id: string;
  docNumber: string;
  userId: string;
  cartId: string;
  /** Invoices: the estimate they were created from (null for estimates). */
  estimateId: string | null;
  status: string;
  hasBeenModified: boolean;
  hasInvoice: boolean;
  isInQbo: boolean;
  qboId: string | null;
  syncToken: string | null;
  details: EstimateDetails;
  lines: readonly EstimateLine[];
  subtotalCents: number;
  truckingCents: number;
  taxCents: number;
  totalCents: number;
  customer: { email: string; displayName: string; ownCompany: string | null; qboId: string | null };
  createdAt: Date;
  /** Grows by one with every change of the order (the write guard and the events' revision). */
  revision: number;
  /** The revision of the last edit of details or lines (0: never edited). */
  editedRevision: number;
  /** Staff booked it beyond the free units on purpose (the last such confirmation); staff-only. */
  subRental: SubRental | null;
  /** Issue 30, estimates offered for acceptance: where it stands (lists and screens show it). */
  acceptance?: AcceptanceSummaryView;
  /** Issue 30: the estimate's offer lapsed unaccepted at this editedRevision (bookings.ts' offerLapsed). */
  offerLapsedAtEdit?: number | null;
}

/** The older name, for an estimate. */
export type EstimateRecord = OrderRecord;

/**
 * The estimate as the API shows it (spec §3 Order): the spec's field names, every event-detail and
 * will-call field present (null when not filled in), money in dollars, lines as CartProducts.
 */
export function estimateView(estimate: OrderRecord) {
  const details = Object.fromEntries(
    DETAIL_FIELDS.map((field) => [field, estimate.details[field] ?? null]),
  ) as Record<EstimateDetailField, string | null>;
  return {
    id: estimate.id,
    DocNumber: estimate.docNumber,
    UserId: estimate.userId,
    CartId: estimate.cartId,
    status: estimate.status,
    hasBeenModified: estimate.hasBeenModified,
    hasInvoice: estimate.hasInvoice,
    isInQbo: estimate.isInQbo,
    qboId: estimate.qboId,
    syncToken: estimate.syncToken,
    ...details,
    subtotal: toDollars(estimate.subtotalCents),
    truckingFee: toDollars(estimate.truckingCents),
    salesTax: toDollars(estimate.taxCents),
    total: toDollars(estimate.totalCents),
    createdAt: estimate.createdAt.toISOString(),
    CartProducts: estimate.lines.map((line) => ({
      id: line.productId,
      name: line.name,
      description: line.description,
      qty: line.qty,
      price: toDollars(line.priceCents),
      total: toDollars(line.totalCents),
      qboId: line.qboId,
    })),
    User: {
      displayName: estimate.customer.displayName,
      ownCompany: estimate.customer.ownCompany,
      email: estimate.customer.email,
      qboId: estimate.customer.qboId,
    },
  };
}

/**
 * An estimate or invoice as the API shows it: the estimate view; an invoice has EstimateId (the
 * estimate it came from) instead of hasInvoice. `actions` (the caller's buttons) is added by the routes.
 */
export function orderView(order: OrderRecord) {
  const { hasInvoice, ...common } = estimateView(order);
  return order.orderType === 'invoice'
    ? { ...common, EstimateId: order.estimateId ?? '' }
    : { ...common, hasInvoice, ...(order.acceptance ? { acceptance: order.acceptance } : {}) };
}
