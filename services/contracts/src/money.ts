/**
 * Money rules of the spec, shared by the services and the frontends. Amounts are integer cents
 * inside the product and dollars with two decimals at the API edge.
 */

/** Spec §9: sales tax 8.1 % on the rental subtotal plus the trucking fee. */
export const SALES_TAX_RATE = 0.081;

export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function toDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** Spec §9: line total = price × quantity. */
export function lineTotalCents(priceCents: number, qty: number): number {
  return priceCents * qty;
}

/** Spec §9: cart total = the sum of the line totals. */
export function cartTotalCents(lines: readonly { priceCents: number; qty: number }[]): number {
  return lines.reduce((sum, line) => sum + lineTotalCents(line.priceCents, line.qty), 0);
}

export interface EstimateTotals {
  subtotalCents: number;
  truckingCents: number;
  taxCents: number;
  totalCents: number;
}

/** Spec §9: tax = 8.1 % of (subtotal + trucking), rounded to the cent; total = subtotal + trucking + tax. */
export function estimateTotals(subtotalCents: number, truckingCents: number): EstimateTotals {
  const taxCents = Math.round((subtotalCents + truckingCents) * SALES_TAX_RATE);
  return { subtotalCents, truckingCents, taxCents, totalCents: subtotalCents + truckingCents + taxCents };
}
