import { startService } from '@decor/kit';
import { RUN_ID, serviceEnv } from '@decor/kit/src/testing';
import { accountingSyncService } from '../src/app';
import { loadAccountingSyncConfig } from '../src/config';

describe('accounting-sync service process', () => {
  it('connects to Mongo, Kafka and Redis, creates its topic and reports ready', async () => {
    const config = loadAccountingSyncConfig(await serviceEnv('accounting-sync'));
    const service = await startService(accountingSyncService(config), { exit: () => {} });
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${service.url}/readyz`);
      const body = (await ready.json()) as { checks: Record<string, { status: string }> };
      expect(ready.status).toBe(200);
      expect(body.checks).toMatchObject({ mongo: { status: 'up' }, kafka: { status: 'up' }, redis: { status: 'up' } });

      const admin = service.ctx.kafka.admin();
      await admin.connect();
      const { topics } = await admin.fetchTopicMetadata({ topics: [`${RUN_ID}.accounting`] });
      await admin.disconnect();
      expect(topics[0]?.partitions).toHaveLength(6);
    } finally {
      await service.shutdown('test over');
    }
  });
});
