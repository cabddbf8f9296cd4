import { expectServiceStartsReady, serviceEnv } from '@decor/kit/testing';
import { orderService } from '../src/app';
import { loadOrderConfig } from '../src/config';

describe('order service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    await expectServiceStartsReady(orderService(loadOrderConfig(await serviceEnv('order'))), 'order');
  });
});
