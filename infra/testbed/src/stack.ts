import type { RunningService, ServiceApp, StartedService } from '@decor/kit';
import { serviceEnv } from '@decor/kit/testing';
import type { NotificationContext } from '@decor/notification';
import type { UserContext } from '@decor/user';
import { startGateway, startInProcess, startWorkerInProcess } from './product';

export interface Stack {
  gatewayUrl: string;
  gateway: ServiceApp;
  user: StartedService<UserContext>;
  notification?: StartedService<NotificationContext>;
  stop(): Promise<void>;
}

/**
 * The real path of a password reset, in this test process: gateway → user service → Kafka →
 * notification service → BullMQ → notification worker → SMTP mail catcher. Nothing is mocked;
 * every service gets its own databases, topics and queues for this test file.
 */
export async function startStack(
  opts: { notification?: boolean; notificationEnv?: Record<string, string> } = {},
): Promise<Stack> {
  const userEnv = await serviceEnv('user');
  const user = await startInProcess('user', userEnv);
  const started: RunningService[] = [user];
  let notification: StartedService<NotificationContext> | undefined;
  if (opts.notification !== false) {
    const env = () => serviceEnv('notification', opts.notificationEnv);
    notification = await startInProcess('notification', await env());
    started.push(notification, await startWorkerInProcess('notification', await env()));
  }
  const { gateway, gatewayUrl } = await startGateway(
    { user: user.url, notification: notification?.url ?? 'http://127.0.0.1:9' },
    userEnv,
    // No catalogue in this stack: no cache of its reads, no Kafka consumer.
    { GATEWAY_CACHE_TTL_MS: '0' },
  );
  return {
    gatewayUrl,
    gateway,
    user,
    notification,
    stop: async () => {
      await gateway.close();
      // All at once: each waits out its consumers' in-flight Kafka fetches (seconds) otherwise.
      await Promise.all(started.map((s) => s.shutdown('test over')));
    },
  };
}
