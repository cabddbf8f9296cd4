import type { CartContext } from '@decor/cart';
import { cartService, loadCartConfig } from '@decor/cart';
import { catalogueService, loadCatalogueConfig } from '@decor/catalogue';
import { catalogueEnv } from '@decor/catalogue/testing';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { JWT_SECRET } from '@decor/gateway/testing';
import type { RunningService, ServiceApp } from '@decor/kit';
import { type StartedService, startService, startWorkers } from '@decor/kit';
import { RUN_ID, serviceEnv } from '@decor/kit/testing';
import { loadNotificationConfig, notificationService, notificationWorkers } from '@decor/notification';
import { loadOrderConfig, orderService } from '@decor/order';
import type { UserContext } from '@decor/user';
import { hashPassword, loadUserConfig, newUserWithEvent, userService } from '@decor/user';

/** Where this file's new-estimate notices go (the notification service's STAFF_EMAIL). */
export const STAFF_EMAIL = `staff-${RUN_ID}@decor.example`;

export interface Customer {
  id: string;
  email: string;
  password: string;
  firstName: string;
}

export interface StorefrontStack {
  gatewayUrl: string;
  api: string;
  gateway: ServiceApp;
  user: StartedService<UserContext>;
  cart: StartedService<CartContext>;
  /** A new customer of the demo company, stored as the user service stores users (with UserCreated). */
  createCustomer(name: string): Promise<Customer>;
  /** Starts the notification service and its worker (again, after `stopNotification`). */
  startNotification(): Promise<void>;
  stopNotification(): Promise<void>;
  stop(): Promise<void>;
}

const noExit = { exit: () => {} };

/**
 * Everything a customer's checkout touches, in this test process and on this file's databases and
 * topics: user, catalogue (demo data), cart, order, notification + e-mail worker, and the gateway
 * in front. The notification service's URL stays fixed, so it can be stopped and started again.
 */
export async function startStorefrontStack(
  opts: { notification?: boolean; gatewayEnv?: Record<string, string> } = {},
): Promise<StorefrontStack> {
  const started: RunningService[] = [];
  let notification: RunningService[] = [];
  const stopNotification = async () => {
    await Promise.all(notification.map((s) => s.shutdown('test: notification down')));
    notification = [];
  };
  const stopAll = async () => {
    // All at once: each waits out its consumers' in-flight Kafka fetches (seconds), which one service
    // after another added up to half a minute per file; nothing of a finished file needs the order.
    await Promise.all([stopNotification(), ...started.map((s) => s.shutdown('test over'))]);
  };
  try {
    const start = async <T extends RunningService>(s: Promise<T>): Promise<T> => {
      started.push(await s);
      return started.at(-1) as T;
    };
    const user = await start(startService(userService(loadUserConfig(await serviceEnv('user'))), noExit));
    const catalogue = await start(
      startService(catalogueService(loadCatalogueConfig(await catalogueEnv())), noExit),
    );
    const cart = await start(startService(cartService(loadCartConfig(await serviceEnv('cart'))), noExit));
    const order = await start(startService(orderService(loadOrderConfig(await serviceEnv('order'))), noExit));

    const notificationEnv = await serviceEnv('notification', { STAFF_EMAIL });
    // The worker answers its health routes on a port of its own.
    const workerEnv = { ...notificationEnv, PORT: (await serviceEnv('notification')).PORT };
    const startNotification = async () => {
      notification.push(
        await startService(notificationService(loadNotificationConfig(notificationEnv)), noExit),
      );
      notification.push(await startWorkers(notificationWorkers(loadNotificationConfig(workerEnv)), noExit));
    };
    if (opts.notification !== false) await startNotification();

    const gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET,
        USER_SERVICE_URL: user.url,
        CATALOGUE_SERVICE_URL: catalogue.url,
        CART_SERVICE_URL: cart.url,
        ORDER_SERVICE_URL: order.url,
        NOTIFICATION_SERVICE_URL: `http://127.0.0.1:${notificationEnv.PORT}`,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        // Its cache of catalogue reads hears this file's catalogue events.
        KAFKA_BROKERS: notificationEnv.KAFKA_BROKERS as string,
        KAFKA_TOPIC_PREFIX: notificationEnv.KAFKA_TOPIC_PREFIX as string,
        // Its rate-limit counters: this file's own keys.
        REDIS_URL: notificationEnv.REDIS_URL as string,
        REDIS_PREFIX: notificationEnv.REDIS_PREFIX as string,
        ...opts.gatewayEnv,
      }),
      { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
    );
    const gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
    // Ready as /readyz means it: it has read which sessions ended (else a token answers 503).
    await gateway.sessionRevocations.whenCaughtUp(10_000);
    return {
      gatewayUrl,
      api: `${gatewayUrl}/api`,
      gateway,
      user,
      cart,
      createCustomer: (name) => createCustomer(user, name),
      startNotification,
      stopNotification,
      stop: async () => {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
    // A failed start stops what it began, so nothing keeps consuming after the test file ends.
    await stopAll().catch(() => {});
    throw err;
  }
}

async function createCustomer(user: StartedService<UserContext>, name: string): Promise<Customer> {
  const email = `${name}-${RUN_ID}@decor.example`.toLowerCase();
  const password = `${name}-pw`;
  const doc = newUserWithEvent(
    user.ctx.users,
    {
      firstName: name,
      lastName: 'Customer',
      email,
      permissions: 'customer',
      ownCompany: 'Evergreen Weddings',
      passwordHash: await hashPassword(password),
    },
    `create-${name}`,
  );
  await doc.save();
  user.ctx.eventsWritten();
  return { id: doc._id.toString(), email, password, firstName: name };
}
