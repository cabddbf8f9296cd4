import { expectServiceStartsReady } from '@decor/kit/testing';
import { catalogueService } from '../src/app';
import { loadCatalogueConfig } from '../src/config';
import { catalogueEnv } from './support';

describe('catalogue service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    // About the process, not the data: no demo catalogue (and nothing left behind in S3).
    const env = await catalogueEnv({ DEMO_CATALOGUE: 'false' });
    await expectServiceStartsReady(catalogueService(loadCatalogueConfig(env)), 'catalogue');
  });
});
