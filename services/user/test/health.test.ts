import { expectServiceStartsReady, serviceEnv } from '@decor/kit/testing';
import { userService } from '../src/app';
import { loadUserConfig } from '../src/config';

describe('user service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    await expectServiceStartsReady(userService(loadUserConfig(await serviceEnv('user'))), 'user');
  });
});
