import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { gatewayTestEnv } from '@decor/gateway/testing';
import type { RunningService, ServiceApp } from '@decor/kit';
import { type StartedService, startService, startWorkers } from '@decor/kit';
import { serviceEnv } from '@decor/kit/testing';
import {
  loadNotificationConfig,
  type NotificationContext,
  notificationService,
  notificationWorkers,
} from '@decor/notification';
import type { UserContext } from '@decor/user';
import { loadUserConfig, userService } from '@decor/user';

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
  const noExit = { exit: () => {} };
  const userEnv = await serviceEnv('user');
  const user = await startService(userService(loadUserConfig(userEnv)), noExit);
  const started: RunningService[] = [user];
  let notificationUrl = 'http://127.0.0.1:9';
  let notification: StartedService<NotificationContext> | undefined;
  if (opts.notification !== false) {
    const env = () => serviceEnv('notification', opts.notificationEnv);
    notification = await startService(notificationService(loadNotificationConfig(await env())), noExit);
    const worker = await startWorkers(notificationWorkers(loadNotificationConfig(await env())), noExit);
    started.push(notification, worker);
    notificationUrl = notification.url;
  }
  const gateway = await buildGateway(
    loadGatewayConfig({
      ...gatewayTestEnv(userEnv),
      USER_SERVICE_URL: user.url,
      NOTIFICATION_SERVICE_URL: notificationUrl,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // No catalogue in this stack: no cache of its reads, no Kafka consumer.
      GATEWAY_CACHE_TTL_MS: '0',
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  const gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
  // Ready as /readyz means it: it has read which sessions ended (else a token answers 503).
  await gateway.sessionRevocations.whenCaughtUp(10_000);
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
