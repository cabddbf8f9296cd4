import { startService } from '@decor/kit';
import { RUN_ID, serviceEnv } from '@decor/kit/src/testing';
import { catalogueService } from '../src/app';
import { loadCatalogueConfig } from '../src/config';

describe('catalogue service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    const config = loadCatalogueConfig(await serviceEnv('catalogue'));
    const service = await startService(catalogueService(config), { exit: () => {} });
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${service.url}/readyz`);
      const body = (await ready.json()) as { checks: Record<string, { status: string }> };
      expect(ready.status).toBe(200);
      expect(body.checks).toMatchObject({ mongo: { status: 'up' }, kafka: { status: 'up' }, redis: { status: 'up' } });

      const admin = service.ctx.kafka.admin();
      await admin.connect();
      const { topics } = await admin.fetchTopicMetadata({ topics: [`${RUN_ID}.catalogue`] });
      await admin.disconnect();
      expect(topics[0]?.partitions).toHaveLength(6);
    } finally {
      await service.shutdown('test over');
    }
  });
});
