/** The package entry for other workspaces' tests and benches; main.ts starts the process. */
export { buildGateway } from './app';
export { gatewayConfigSchema, loadGatewayConfig, parseGatewayConfig } from './config';
