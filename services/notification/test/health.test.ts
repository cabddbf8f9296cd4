import { startWorkers } from '@decor/kit';
import { expectServiceStartsReady, serviceEnv } from '@decor/kit/testing';
import { notificationService } from '../src/app';
import { loadNotificationConfig } from '../src/config';
import { notificationWorkers } from '../src/worker-app';

describe('notification service processes', () => {
  it('the consumer process connects, joins the user topic and reports ready', async () => {
    // It consumes the user topic (created on demand) rather than publishing its own.
    await expectServiceStartsReady(
      notificationService(loadNotificationConfig(await serviceEnv('notification'))),
      'user',
    );
  });

  it('the worker process reports ready with its Redis connection and e-mail worker', async () => {
    const worker = await startWorkers(
      notificationWorkers(loadNotificationConfig(await serviceEnv('notification'))),
      { exit: () => {} },
    );
    try {
      const ready = await fetch(`${worker.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        checks: { redis: { status: 'up' }, workers: { status: 'up' } },
      });
    } finally {
      await worker.shutdown('test over');
    }
  });
});
