import { runService } from '@decor/kit';
import { buildGateway } from './app';
import { loadGatewayConfig } from './config';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await buildGateway(config);
  await runService({ app, port: config.PORT, host: config.HOST, drainDelayMs: config.DRAIN_DELAY_MS });
}

void main();
