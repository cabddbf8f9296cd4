import type { BaseContext, ServiceDefinition } from '@decor/kit';
import type { AccountingSyncConfig } from './config';

export type AccountingSyncContext = BaseContext<AccountingSyncConfig>;

/** The accounting-sync service: keeps users, products and orders in step with QuickBooks Online. Its domain arrives with the storefront and back-office issues. */
export function accountingSyncService(
  config: AccountingSyncConfig,
): ServiceDefinition<AccountingSyncConfig, AccountingSyncContext> {
  return {
    name: 'accounting-sync',
    config,
    publishes: ['accounting'],
    build: (base) => base,
    routes: async () => {},
  };
}
