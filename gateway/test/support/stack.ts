import type { RunningService, ServiceApp } from '@decor/kit';
import { type StartedService, startService, startWorkers } from '@decor/kit';
import { serviceEnv, TEST_JWT_SECRET } from '@decor/kit/testing';
import {
  loadNotificationConfig,
  type NotificationContext,
  notificationService,
  notificationWorkers,
} from '@decor/notification';
import type { UserContext } from '@decor/user';
import { loadUserConfig, userService } from '@decor/user';
import { buildGateway } from '../../src/app';
import { loadGatewayConfig } from '../../src/config';

export const JWT_SECRET = TEST_JWT_SECRET;

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

/**
 * What every test gateway needs besides its upstreams: this file's Redis keys (rate limits), a free
 * internal port, and this file's Kafka (a gateway that cannot read the user topic answers a session
 * token 503: it cannot tell an ended session from a live one).
 */
export function gatewayTestEnv(env: Record<string, string>): Record<string, string> {
  return {
    KAFKA_BROKERS: env.KAFKA_BROKERS as string,
    KAFKA_TOPIC_PREFIX: env.KAFKA_TOPIC_PREFIX as string,
    NODE_ENV: 'test',
    DECOR_ALLOW_DEV_SECRETS: '1',
    JWT_SECRET,
    REDIS_URL: env.REDIS_URL as string,
    REDIS_PREFIX: env.REDIS_PREFIX as string,
  };
}
