import type { ServiceDefinition } from '@decor/kit';
import type { NotificationConfig } from './config';
import { buildNotificationContext, type NotificationContext } from './context';
import { userEventHandlers } from './events/user-events';

/** The notification service: turns events into e-mail jobs (sent by src/worker.ts). */
export function notificationService(
  config: NotificationConfig,
): ServiceDefinition<NotificationConfig, NotificationContext> {
  return {
    name: 'notification',
    config,
    build: buildNotificationContext,
    consumers: (ctx) => [{ name: 'emails', topics: ['user'], handlers: userEventHandlers(ctx) }],
    routes: async () => {},
    closers: (ctx) => [{ name: 'email queue', close: () => ctx.emails.close() }],
  };
}
