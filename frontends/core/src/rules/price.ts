/**
 * Money on screen. The rules themselves (line total = price × qty, cart total = sum of lines) come
 * from @decor/contracts, the same code the services run; this module only shows dollars.
 */
import { cartTotalCents, toCents, toDollars } from '@decor/contracts/rules';
import type { Product } from '../types';

export const CALL_FOR_DETAILS = 'Call or Email us for Details!';

/** Dollars (two decimals at the API edge) → '$1,234.50'. */
export function formatDollars(dollars: number): string {
  const cents = toCents(dollars);
  const [whole = '0', fraction = '00'] = (Math.abs(cents) / 100).toFixed(2).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${grouped}.${fraction}`;
}

export type PriceDisplay = { kind: 'price'; text: string } | { kind: 'call'; text: string; sku: string };

/**
 * Spec §2: a product's price shows only when price and quantity are both above 0; otherwise
 * 'Call or Email us for Details!' with the SKU. Visitors get neither field, so they see the call text.
 */
export function priceDisplay(product: Pick<Product, 'id' | 'price' | 'quantity'>): PriceDisplay {
  const { price, quantity } = product;
  if (typeof price === 'number' && typeof quantity === 'number' && price > 0 && quantity > 0) {
    return { kind: 'price', text: formatDollars(price) };
  }
  return { kind: 'call', text: CALL_FOR_DETAILS, sku: product.id };
}

/** Cart total of lines priced in dollars, through the shared cents rule. */
export function cartTotalDollars(lines: readonly { price: number; qty: number }[]): number {
  return toDollars(cartTotalCents(lines.map((l) => ({ priceCents: toCents(l.price), qty: l.qty }))));
}

/** Spec §5: a quantity may be set only when above 0 and at most the stock. */
export function quantityAllowed(qty: number, stock: number | undefined): boolean {
  return Number.isInteger(qty) && qty > 0 && typeof stock === 'number' && qty <= stock;
}
