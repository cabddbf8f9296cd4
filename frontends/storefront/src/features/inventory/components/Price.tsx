import { type Product, priceDisplay } from '@decor/web-core';

/** Spec §2 price rule: the price when price and stock are both above 0, else the call text with the SKU. */
export function Price({ product }: { product: Pick<Product, 'id' | 'price' | 'quantity'> }) {
  const shown = priceDisplay(product);
  if (shown.kind === 'price') return <strong style={{ fontSize: 16 }}>{shown.text}</strong>;
  return (
    <span style={{ color: '#6b5d52' }}>
      {shown.text} <span style={{ whiteSpace: 'nowrap' }}>SKU: {shown.sku}</span>
    </span>
  );
}
