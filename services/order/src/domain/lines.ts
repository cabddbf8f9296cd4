/**
 * Spec §4/§5 line edits in the order's edit mode: the client names products and quantities only;
 * every price, name, description and QuickBooks id comes from the catalogue (this service's copy,
 * learnt from its events). Pure: the caller reads the products and turns a refusal into HTTP.
 */
import type { EstimateLine } from './estimate';

/** A product as the catalogue last announced it (money in cents, quantity = stock). */
export interface CatalogueProduct {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  quantity: number;
  qboId: string | null;
}

/** One line of the edited order as the client sends it: the product and how many. */
export interface RequestedLine {
  id: string;
  qty: number;
}

export const LINE_MESSAGES = {
  noLines: 'An order must keep at least one line',
  addStaffOnly: 'Only staff can add products to an order',
  qtyAtLeastOne: 'Quantity must be at least 1',
} as const;

export const duplicateLine = (sku: string) => `${sku} is on the order more than once`;
export const unknownProduct = (sku: string) => `Product ${sku} not found`;
/** The cart's wording (spec §5: quantity 1..stock), with the product named. */
export function overStock(name: string, stock: number): string {
  if (stock <= 0) return `${name} is out of stock`;
  return stock === 1 ? `Only 1 ${name} is available` : `Only ${stock} of ${name} are available`;
}

export type LineRefusal = { status: 400 | 403; message: string };

/**
 * The order's new lines, in the order sent, or why not. A line left as it was (same product, same
 * quantity) stays exactly as ordered; a changed or added line is priced and named from the
 * catalogue now, with 1..stock units. Only staff add products (customers change quantities and
 * remove lines, where the lifecycle lets them edit); an order keeps at least one line.
 */
export function editedLines(
  current: readonly EstimateLine[],
  requested: readonly RequestedLine[],
  products: ReadonlyMap<string, CatalogueProduct>,
  staff: boolean,
): { lines: EstimateLine[] } | { refusal: LineRefusal } {
  const refuse = (message: string, status: 400 | 403 = 400) => ({ refusal: { status, message } });
  if (requested.length === 0) return refuse(LINE_MESSAGES.noLines);
  const seen = new Set<string>();
  const lines: EstimateLine[] = [];
  for (const { id, qty } of requested) {
    if (seen.has(id)) return refuse(duplicateLine(id));
    seen.add(id);
    const ordered = current.find((line) => line.productId === id);
    if (ordered && ordered.qty === qty) {
      lines.push(ordered);
      continue;
    }
    if (!ordered && !staff) return refuse(LINE_MESSAGES.addStaffOnly, 403);
    if (!Number.isInteger(qty) || qty < 1) return refuse(LINE_MESSAGES.qtyAtLeastOne);
    const product = products.get(id);
    if (!product) return refuse(unknownProduct(id));
    if (qty > product.quantity) return refuse(overStock(product.name, product.quantity));
    lines.push({
      productId: id,
      name: product.name,
      description: product.description,
      qty,
      priceCents: product.priceCents,
      totalCents: 0, // the lifecycle's edit computes it with the totals
      qboId: product.qboId,
    });
  }
  return { lines };
}
