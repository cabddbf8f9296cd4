import type { BaseContext, ServiceDefinition } from '@decor/kit';
import type { OrderConfig } from './config';

export type OrderContext = BaseContext<OrderConfig>;

/** The order service: estimates and invoices. Its domain arrives with the storefront and back-office issues. */
export function orderService(config: OrderConfig): ServiceDefinition<OrderConfig, OrderContext> {
  return {
    name: 'order',
    config,
    publishes: ['order'],
    build: (base) => base,
    routes: async () => {},
  };
}
