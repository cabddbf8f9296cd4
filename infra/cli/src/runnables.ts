import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Every process of the product besides the infrastructure, with its default port. */
export interface Runnable {
  name: string;
  dir: string;
  port: number;
  /** Env variable of `npm start` that pins this port (otherwise: the default + DECOR_PORT_OFFSET). */
  portEnv: string;
  /** Env variable through which the gateway finds it. */
  urlEnv?: string;
  /** May have a separate BullMQ worker process (src/worker.ts); it answers /readyz on WORKER_PORT. */
  worker?: boolean;
  workerPort?: number;
  workerPortEnv?: string;
  /** The gateway's internal port (INTERNAL_PORT): its /readyz and /metrics, never on the public one. */
  internalPort?: number;
  internalPortEnv?: string;
}

export const SERVICES: readonly Runnable[] = [
  { name: 'user', dir: 'services/user', port: 4101, portEnv: 'USER_PORT', urlEnv: 'USER_SERVICE_URL' },
  {
    name: 'catalogue',
    dir: 'services/catalogue',
    port: 4102,
    portEnv: 'CATALOGUE_PORT',
    urlEnv: 'CATALOGUE_SERVICE_URL',
  },
  { name: 'cart', dir: 'services/cart', port: 4103, portEnv: 'CART_PORT', urlEnv: 'CART_SERVICE_URL' },
  { name: 'order', dir: 'services/order', port: 4104, portEnv: 'ORDER_PORT', urlEnv: 'ORDER_SERVICE_URL' },
  {
    name: 'accounting-sync',
    dir: 'services/accounting-sync',
    port: 4105,
    portEnv: 'ACCOUNTING_SYNC_PORT',
    urlEnv: 'ACCOUNTING_SYNC_SERVICE_URL',
    // Its BullMQ workers run inside each instance (QBO_WORKER_CONCURRENCY): they need its tokens and records.
  },
  {
    name: 'notification',
    dir: 'services/notification',
    port: 4106,
    portEnv: 'NOTIFICATION_PORT',
    urlEnv: 'NOTIFICATION_SERVICE_URL',
    worker: true,
    workerPort: 4116,
    workerPortEnv: 'NOTIFICATION_WORKER_PORT',
  },
];

export const GATEWAY: Runnable = {
  name: 'gateway',
  dir: 'gateway',
  port: 8080,
  portEnv: 'GATEWAY_PORT',
  internalPort: 8081,
  internalPortEnv: 'GATEWAY_INTERNAL_PORT',
};

export const RUNNABLES: readonly Runnable[] = [...SERVICES, GATEWAY];
