import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { CartConfig } from './config';
import { buildCartContext, type CartContext } from './context';
import { checkoutConsumer, customerConsumer, productConsumer } from './events/handlers';
import { cartProductRoutes } from './routes/cart-products';
import { cartRoutes } from './routes/carts';

export type { CartContext } from './context';

export async function registerRoutes(app: ServiceApp, ctx: CartContext): Promise<void> {
  await app.register(async (scope) => cartRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => cartProductRoutes(scope as ServiceApp, ctx));
}

/** The cart service: customers' named carts and their lines (spec §3, §4, §7). */
export function cartService(config: CartConfig): ServiceDefinition<CartConfig, CartContext> {
  return {
    name: 'cart',
    config,
    publishes: ['cart'],
    build: buildCartContext,
    outbox: (ctx) => [ctx.customerCarts],
    consumers: (ctx) => [productConsumer(ctx), customerConsumer(ctx), checkoutConsumer(ctx)],
    routes: registerRoutes,
  };
}
