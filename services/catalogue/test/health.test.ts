import { expectServiceStartsReady, serviceEnv } from '@decor/kit/src/testing';
import { catalogueService } from '../src/app';
import { loadCatalogueConfig } from '../src/config';

describe('catalogue service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    await expectServiceStartsReady(
      catalogueService(loadCatalogueConfig(await serviceEnv('catalogue'))),
      'catalogue',
    );
  });
});
