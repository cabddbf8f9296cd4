/** The package entry: what other workspaces (the gateway's and the browser journeys' stacks, benches) may use; main.ts starts the process. */
export { orderService } from './app';
export { loadOrderConfig, orderConfigSchema } from './config';
export type { OrderContext } from './context';
