import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { NotificationConfig } from './config';
import { buildNotificationContext, type NotificationContext } from './context';
import { orderEventHandlers } from './events/order-events';
import { userEventHandlers } from './events/user-events';
import { failedEmailRoutes } from './routes/failed-emails';
import { infoRoutes } from './routes/info';
import { sendRoutes } from './routes/send';

export type { NotificationContext } from './context';

/** The notification service: turns events and requests into e-mail jobs (sent by src/worker.ts). */
export function notificationService(
  config: NotificationConfig,
): ServiceDefinition<NotificationConfig, NotificationContext> {
  return {
    name: 'notification',
    config,
    build: buildNotificationContext,
    consumers: (ctx) => [
      {
        name: 'emails',
        // `user` too: e-mail requests written before they moved to `user-email` (in an outbox not
        // yet relayed, or by an older instance during a rolling upgrade) are relayed there.
        topics: ['user', 'user-email', 'order'],
        handlers: { ...userEventHandlers(ctx), ...orderEventHandlers(ctx) },
      },
    ],
    routes: async (app, ctx) => {
      await app.register(async (scope) => sendRoutes(scope as ServiceApp));
      await app.register(async (scope) => infoRoutes(scope as ServiceApp, ctx));
      await app.register(async (scope) => failedEmailRoutes(scope as ServiceApp, ctx));
    },
    closers: (ctx) => [{ name: 'email queue', close: () => ctx.emails.close() }],
  };
}
