import type { BaseContext, ServiceDefinition } from '@decor/kit';
import type { CartConfig } from './config';

export type CartContext = BaseContext<CartConfig>;

/** The cart service: customers' named carts and their lines. Its domain arrives with the storefront and back-office issues. */
export function cartService(config: CartConfig): ServiceDefinition<CartConfig, CartContext> {
  return {
    name: 'cart',
    config,
    publishes: ['cart'],
    build: (base) => base,
    routes: async () => {},
  };
}
