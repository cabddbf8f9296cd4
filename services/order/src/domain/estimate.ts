import {
  type CartLineData,
  type EstimateTotals,
  estimateTotals,
  lineTotalCents,
  ORDER_STATUSES,
  type OrderStatus,
} from '@decor/contracts';
import type { BookableOrder } from './bookings';
import type { EstimateDetails } from './details';

/** Spec §4's statuses, from the lifecycle in contracts. */
export { ORDER_STATUSES, type OrderStatus };

/** A DocNumber is the counter's value plus this, so the first estimate is 1001. */
export const DOC_NUMBER_BASE = 1000;

export const MESSAGES = {
  onlyCustomers: 'Only customers can submit an order request',
  cartNotFound: 'Cart not found',
  alreadySubmitted: 'This cart has already been submitted',
  notActive: 'Only your active cart can be submitted',
  empty: 'Your cart is empty',
  estimateNotFound: 'Estimate not found',
  keyReused: 'This Idempotency-Key was already used for another order request',
} as const;

/** A cart as the order service knows it from the cart service's events (money in cents). */
export interface CartSnapshot {
  id: string;
  userId: string;
  isActive: boolean;
  didCheckOut: boolean;
  lines: readonly Omit<CartLineData, 'id'>[];
}

/** One line of an estimate: the cart line as it was at submission. */
export interface EstimateLine {
  productId: string;
  name: string;
  description: string;
  qty: number;
  priceCents: number;
  totalCents: number;
  qboId: string | null;
}

export interface Refusal {
  status: 404 | 409;
  message: string;
}

/**
 * Why `userId` may not submit this cart, or null when it may. Another customer's cart is "not
 * found" (nothing about it leaks); a submitted cart says so before the other rules, since after
 * checkout it is also inactive and the customer should hear the real reason.
 */
export function cartRefusal(
  cart: CartSnapshot | null,
  userId: string,
  alreadySubmitted: boolean,
): Refusal | null {
  if (!cart || cart.userId !== userId) return { status: 404, message: MESSAGES.cartNotFound };
  if (alreadySubmitted || cart.didCheckOut) return { status: 409, message: MESSAGES.alreadySubmitted };
  if (!cart.isActive) return { status: 409, message: MESSAGES.notActive };
  if (cart.lines.length === 0) return { status: 409, message: MESSAGES.empty };
  return null;
}

export interface EstimateDraft extends EstimateTotals {
  cartId: string;
  userId: string;
  status: 'Pending';
  details: EstimateDetails;
  lines: EstimateLine[];
}

/**
 * The estimate of a cart: a snapshot of its lines (line total = price × qty), subtotal = the sum of
 * the lines, and spec §9's totals: tax 8.1 % of subtotal + trucking, total = subtotal + trucking + tax.
 */
/** The status of a submitted order request. */
const SUBMITTED_STATUS = 'Pending' satisfies OrderStatus;

/**
 * The estimate a cart's submission makes, as bookings see it (the lines and the dates): what
 * `buildEstimate` will store books the same, whatever the customer's name and the fee.
 */
export function submittedOrder(id: string, cart: CartSnapshot, details: EstimateDetails): BookableOrder {
  return {
    orderType: 'estimate',
    id,
    estimateId: null,
    status: SUBMITTED_STATUS,
    details,
    lines: cart.lines,
  };
}

export function buildEstimate(
  cart: CartSnapshot,
  details: EstimateDetails,
  truckingCents: number,
): EstimateDraft {
  const lines = cart.lines.map((line) => ({
    productId: line.productId,
    name: line.name,
    description: line.description,
    qty: line.qty,
    priceCents: line.priceCents,
    totalCents: lineTotalCents(line.priceCents, line.qty),
    qboId: line.qboId ?? null,
  }));
  const subtotalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  return {
    cartId: cart.id,
    userId: cart.userId,
    status: SUBMITTED_STATUS,
    details,
    lines,
    ...estimateTotals(subtotalCents, truckingCents),
  };
}

export function docNumberOf(counter: number): string {
  return String(DOC_NUMBER_BASE + counter);
}

/** The list filter's status values (spec: pending, open, …) matched to the stored spelling. */
export function statusFromQuery(value: string): OrderStatus | undefined {
  return ORDER_STATUSES.find((status) => status.toLowerCase() === value.toLowerCase());
}
