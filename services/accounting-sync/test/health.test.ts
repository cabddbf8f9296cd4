import { expectServiceStartsReady, serviceEnv } from '@decor/kit/testing';
import { accountingSyncService } from '../src/app';
import { loadAccountingSyncConfig } from '../src/config';

describe('accounting-sync service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    await expectServiceStartsReady(
      accountingSyncService(loadAccountingSyncConfig(await serviceEnv('accounting-sync'))),
      'accounting',
    );
  });
});
