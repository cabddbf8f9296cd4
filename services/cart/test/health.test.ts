import { expectServiceStartsReady, serviceEnv } from '@decor/kit/testing';
import { cartService } from '../src/app';
import { loadCartConfig } from '../src/config';

describe('cart service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    await expectServiceStartsReady(cartService(loadCartConfig(await serviceEnv('cart'))), 'cart');
  });
});
