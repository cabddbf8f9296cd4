/** The package entry: what other workspaces (the gateway's and the browser journeys' stacks, benches) may use; main.ts starts the process. */
export { cartService } from './app';
export { cartConfigSchema, loadCartConfig } from './config';
export type { CartContext } from './context';
