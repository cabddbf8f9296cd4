/** The package entry: what other workspaces (the gateway's and the browser journeys' stacks, benches) may use; main.ts starts the process. */
export { accountingSyncService } from './app';
export { accountingSyncConfigSchema, loadAccountingSyncConfig } from './config';
export type { AccountingSyncContext } from './context';
export { CONNECTION_ID } from './store/connection-model';
