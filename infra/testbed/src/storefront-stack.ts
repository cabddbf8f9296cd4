import type { CartContext } from '@decor/cart';
import { catalogueEnv } from '@decor/catalogue/testing';
import type { RunningService, ServiceApp, StartedService } from '@decor/kit';
import { RUN_ID, serviceEnv } from '@decor/kit/testing';
import type { UserContext } from '@decor/user';
import { hashPassword, newUserWithEvent } from '@decor/user';
import { startGateway, startInProcess, startWorkerInProcess } from './product';

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
    const user = await start(startInProcess('user', await serviceEnv('user')));
    const catalogue = await start(startInProcess('catalogue', await catalogueEnv()));
    const cart = await start(startInProcess('cart', await serviceEnv('cart')));
    const order = await start(startInProcess('order', await serviceEnv('order')));

    const notificationEnv = await serviceEnv('notification', { STAFF_EMAIL });
    // The worker answers its health routes on a port of its own.
    const workerEnv = { ...notificationEnv, PORT: (await serviceEnv('notification')).PORT };
    const startNotification = async () => {
      notification.push(await startInProcess('notification', notificationEnv));
      notification.push(await startWorkerInProcess('notification', workerEnv));
    };
    if (opts.notification !== false) await startNotification();

    const { gateway, gatewayUrl } = await startGateway(
      {
        user: user.url,
        catalogue: catalogue.url,
        cart: cart.url,
        order: order.url,
        notification: `http://127.0.0.1:${notificationEnv.PORT}`,
      },
      // Its cache of catalogue reads hears this file's catalogue events; its rate-limit counters are
      // this file's own keys.
      notificationEnv,
      opts.gatewayEnv,
    );
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
