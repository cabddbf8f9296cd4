import type { BaseContext } from '@decor/kit';
import { KeyedLock } from '@decor/kit';
import type { CartConfig } from './config';
import { type CustomerCartsModel, customerCartsModel } from './store/carts-model';
import { type ProductCopyModel, productCopyModel } from './store/product-model';

export interface CartContext extends BaseContext<CartConfig> {
  customerCarts: CustomerCartsModel;
  products: ProductCopyModel;
  /** One write at a time per customer in this instance (see keyed-lock.ts). */
  customerLock: KeyedLock;
}

export function buildCartContext(base: BaseContext<CartConfig>): CartContext {
  return {
    ...base,
    customerCarts: customerCartsModel(base.connection),
    products: productCopyModel(base.connection),
    customerLock: new KeyedLock(),
  };
}
