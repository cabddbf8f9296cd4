import { chunkOnce, useChunk } from '@decor/web-core';
import type { AddToCart as AddToCartControl } from './AddToCart';

/**
 * Customers' quantity and Add to cart come in a chunk of their own (with antd's form inputs), which
 * visitors never download. A customer's inventory asks for it as it opens (routes.tsx), so it is
 * usually here before the products are.
 */
const addToCart = chunkOnce(() => import('./AddToCart'));

export const preloadAddToCart = () => addToCart.load();

/** AddToCart, once its chunk is here (nothing until then). */
export function CustomerAddToCart(props: Parameters<typeof AddToCartControl>[0]) {
  const module = useChunk(addToCart);
  return module ? <module.AddToCart {...props} /> : null;
}
