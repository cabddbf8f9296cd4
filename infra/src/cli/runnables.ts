import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Every process of the product besides the infrastructure, with its default port. */
export interface Runnable {
  name: string;
  dir: string;
  port: number;
  /** Env variable through which the gateway finds it. */
  urlEnv?: string;
  /** Has a separate BullMQ worker process (src/worker.ts). */
  worker?: boolean;
}

export const SERVICES: readonly Runnable[] = [
  { name: 'user', dir: 'services/user', port: 4101, urlEnv: 'USER_SERVICE_URL' },
  { name: 'catalogue', dir: 'services/catalogue', port: 4102, urlEnv: 'CATALOGUE_SERVICE_URL' },
  { name: 'cart', dir: 'services/cart', port: 4103, urlEnv: 'CART_SERVICE_URL' },
  { name: 'order', dir: 'services/order', port: 4104, urlEnv: 'ORDER_SERVICE_URL' },
  {
    name: 'accounting-sync',
    dir: 'services/accounting-sync',
    port: 4105,
    urlEnv: 'ACCOUNTING_SYNC_SERVICE_URL',
    worker: true,
  },
  {
    name: 'notification',
    dir: 'services/notification',
    port: 4106,
    urlEnv: 'NOTIFICATION_SERVICE_URL',
    worker: true,
  },
];

export const GATEWAY: Runnable = { name: 'gateway', dir: 'gateway', port: 8080 };

export const RUNNABLES: readonly Runnable[] = [...SERVICES, GATEWAY];
