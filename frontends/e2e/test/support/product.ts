import path from 'node:path';
import type { RunningService, StartedService } from '@decor/kit';
import { startService, startWorkers } from '@decor/kit';
import { eventually, RUN_ID, serviceEnv } from '@decor/kit/src/testing';
import { buildGateway } from '../../../../gateway/src/app';
import { loadGatewayConfig } from '../../../../gateway/src/config';
import { signedIn } from '../../../../gateway/test/support/storefront-client';
import { buildFrontends, describeFrontendBuilds } from '../../../../infra/src/cli/frontends';
import { REPO_ROOT } from '../../../../infra/src/cli/runnables';
import { cartService } from '../../../../services/cart/src/app';
import { loadCartConfig } from '../../../../services/cart/src/config';
import { catalogueService } from '../../../../services/catalogue/src/app';
import { loadCatalogueConfig } from '../../../../services/catalogue/src/config';
import { DEMO_PRODUCTS } from '../../../../services/catalogue/src/demo-data';
import { catalogueEnv } from '../../../../services/catalogue/test/support';
import { notificationService } from '../../../../services/notification/src/app';
import { loadNotificationConfig } from '../../../../services/notification/src/config';
import { notificationWorkers } from '../../../../services/notification/src/worker-app';
import { orderService } from '../../../../services/order/src/app';
import { loadOrderConfig } from '../../../../services/order/src/config';
import { userService } from '../../../../services/user/src/app';
import { loadUserConfig } from '../../../../services/user/src/config';
import type { UserContext } from '../../../../services/user/src/context';
import { hashPassword } from '../../../../services/user/src/domain/password';
import { newUserWithEvent } from '../../../../services/user/src/store/user-model';

/** Where the built frontends live: FRONTENDS_DIR/<app>/dist, as `npm start` serves them. */
export const FRONTENDS_DIR = path.join(REPO_ROOT, 'frontends');

export interface Customer {
  id: string;
  email: string;
  password: string;
  firstName: string;
}

export interface RunningProduct {
  /** The gateway: the shell at /, the remotes under /remotes/<name>/, the API under /api. */
  url: string;
  api: string;
  user: StartedService<UserContext>;
  /**
   * A new customer of the demo company (stored with its UserCreated event, as the user service does),
   * returned once the session knows its first active cart (the cart service makes it from that event).
   */
  createCustomer(name: string): Promise<Customer>;
  stop(): Promise<void>;
}

const noExit = { exit: () => {} };

/**
 * The whole product for browser journeys, in this test process on this file's databases and topics:
 * the frontends built (or reused when their inputs did not change), user, catalogue (demo data), cart,
 * order, notification + e-mail worker, and the gateway serving the built frontends from FRONTENDS_DIR.
 * Like gateway/test/support/storefront-stack.ts, plus FRONTENDS_DIR.
 */
export async function startProduct(log: (line: string) => void = () => {}): Promise<RunningProduct> {
  const built = Date.now();
  const builds = await buildFrontends();
  log(`frontends: ${describeFrontendBuilds(builds)} (${Date.now() - built} ms)`);

  const started: RunningService[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.shutdown('test over');
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
    const notificationEnv = await serviceEnv('notification', {
      STAFF_EMAIL: `staff-${RUN_ID}@decor.example`,
    });
    const notification = await start(
      startService(notificationService(loadNotificationConfig(notificationEnv)), noExit),
    );
    // The worker answers its health routes on a port of its own.
    const workerEnv = { ...notificationEnv, PORT: (await serviceEnv('notification')).PORT };
    await start(startWorkers(notificationWorkers(loadNotificationConfig(workerEnv)), noExit));

    const gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        JWT_SECRET: notificationEnv.JWT_SECRET,
        USER_SERVICE_URL: user.url,
        CATALOGUE_SERVICE_URL: catalogue.url,
        CART_SERVICE_URL: cart.url,
        ORDER_SERVICE_URL: order.url,
        NOTIFICATION_SERVICE_URL: notification.url,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        // The gateway's cache of catalogue reads hears this file's catalogue events.
        KAFKA_BROKERS: notificationEnv.KAFKA_BROKERS,
        KAFKA_TOPIC_PREFIX: notificationEnv.KAFKA_TOPIC_PREFIX,
        FRONTENDS_DIR,
      }),
      { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
    );
    const url = await gateway.listen({ port: 0, host: '127.0.0.1' });
    // Right after start the cart service is still copying the demo catalogue from its events; a line
    // saved before its product arrives is refused. Journeys start once every demo product is known.
    const demoProducts = Object.values(DEMO_PRODUCTS).flatMap((subs) => Object.values(subs).flat()).length;
    await eventually(
      async () => ((await cart.ctx.products.countDocuments()) >= demoProducts ? true : undefined),
      30_000,
      "the cart service's copy of the demo catalogue",
    );
    const api = `${url}/api`;
    return {
      url,
      api,
      user,
      createCustomer: async (name) => {
        const customer = await createCustomer(user, name);
        await (await signedIn(api, customer.email, customer.password)).activeCart();
        return customer;
      },
      stop: async () => {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
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
