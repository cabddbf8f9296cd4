import { useEffect, useState } from 'react';
import type { AddToCart as AddToCartControl } from './AddToCart';

type AddToCartModule = typeof import('./AddToCart');

let loaded: AddToCartModule | undefined;
let loading: Promise<AddToCartModule> | undefined;

/**
 * Customers' quantity and Add to cart come in a chunk of their own (with antd's form inputs), which
 * visitors never download. A customer's inventory asks for it as it opens (routes.tsx), so it is
 * usually here before the products are.
 */
export function preloadAddToCart(): Promise<AddToCartModule> {
  loading ??= import('./AddToCart').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** AddToCart, once its chunk is here (nothing until then). */
export function CustomerAddToCart(props: Parameters<typeof AddToCartControl>[0]) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (!module) preloadAddToCart().then(setModule, () => undefined);
  }, [module]);
  return module ? <module.AddToCart {...props} /> : null;
}
