import type { AccountingSyncContext } from '@decor/accounting-sync';
import type { CartContext } from '@decor/cart';
import type { CatalogueContext } from '@decor/catalogue';
import { catalogueEnv } from '@decor/catalogue/testing';
import type { RunningService, StartedService } from '@decor/kit';
import { RUN_ID, serviceEnv } from '@decor/kit/testing';
import type { OrderContext } from '@decor/order';
import { emulatorControl as qboEmulatorControl } from '@decor/qbo-emulator';
import { freePort, paymentsEnv, qboEnv, testEndpoints } from '@decor/stack';
import { startGateway, startInProcess, startWorkerInProcess } from '@decor/testbed';
import type { UserContext } from '@decor/user';

/** The QuickBooks emulator of the jest run (infra's global setup started it, in-process, memory only). */
export const emulator = () => testEndpoints().qbo;

/** JSON to and from the emulator's control API (`/__emulator/...`). */
export const emulatorCall = <T = unknown>(path: string, init?: { method?: string; json?: unknown }) =>
  qboEmulatorControl(emulator().url).call<T>(path, init);

/** A fresh, empty QuickBooks company of this test file (nothing of another file reaches it). */
export const newEmulatorCompany = (name: string) => qboEmulatorControl(emulator().url).newCompany(name);

export interface QuickBooksStack {
  gatewayUrl: string;
  user: StartedService<UserContext>;
  cart: StartedService<CartContext>;
  /** The catalogue, for journeys that seed products as its routes write them (saveProduct). */
  catalogue: StartedService<CatalogueContext>;
  /** The order service, for journeys that need a moment the product only reaches with time (an offer's end). */
  order: StartedService<OrderContext>;
  accountingSync: StartedService<AccountingSyncContext>;
  stop(): Promise<void>;
}

/**
 * The storefront stack of the gateway tests (user, catalogue with demo data, cart, order,
 * notification + e-mail worker) plus accounting-sync, pointed at the QuickBooks emulator the way
 * `npm start` points them (infra's `qboEnv`), the gateway serving `gatewayEnv.FRONTENDS_DIR`.
 *
 * QuickBooks sends the browser back to `<gateway>/callback`, and the user service (the authorize URL
 * of staff sign-in) and accounting-sync (the code exchange) must name that same redirect URI: so the
 * gateway's port is chosen first, and both services start with QBO_REDIRECT_URI set to it.
 */
export async function startQuickBooksStack(
  opts: { gatewayEnv?: Record<string, string> } = {},
): Promise<QuickBooksStack> {
  const started: RunningService[] = [];
  let accountingSync: StartedService<AccountingSyncContext> | undefined;
  const stopAll = async () => {
    // Its queue's jobs (the demo data on its way to QuickBooks) go with this file.
    await accountingSync?.ctx.syncQueue.obliterate({ force: true }).catch(() => {});
    // All at once: each waits out its consumers' in-flight Kafka fetches (seconds), which one service
    // after another added up to half a minute per file; nothing of a finished file needs the order.
    await Promise.all(started.map((s) => s.shutdown('test over')));
  };
  try {
    const start = async <T extends RunningService>(s: Promise<T>): Promise<T> => {
      started.push(await s);
      return started.at(-1) as T;
    };
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    // The emulator's settings whatever the environment says (tests drive the emulator's control API).
    const qbo = {
      ...qboEnv(testEndpoints(), {}),
      QBO_REDIRECT_URI: `${gatewayUrl}/callback`,
      PUBLIC_BASE_URL: gatewayUrl,
    };

    const user = await start(startInProcess('user', await serviceEnv('user', qbo)));
    const catalogue = await start(startInProcess('catalogue', await catalogueEnv()));
    const cart = await start(startInProcess('cart', await serviceEnv('cart')));
    // The payment provider of acceptance (issue 30): the run's payments emulator, as npm start's;
    // the signed agreements' PDFs in the run's S3 (under this file's folder), as in production.
    const payments = paymentsEnv(testEndpoints(), {});
    const s3 = s3Env();
    const order = await start(
      startInProcess(
        'order',
        await serviceEnv('order', {
          ...payments,
          ...s3,
          AGREEMENT_KEY_PREFIX: `${RUN_ID}/agreements`,
          // An offer that ended is swept within a second (its journey does not wait out the minute).
          OFFER_EXPIRY_SWEEP_MS: '1000',
        }),
      ),
    );
    accountingSync = await start(
      startInProcess(
        'accounting-sync',
        await serviceEnv('accounting-sync', {
          ...qbo,
          // Other test files share the emulator's machine: no throttling of the demo data's sync.
          QBO_RATE_LIMIT_PER_MINUTE: '30000',
        }),
      ),
    );
    // The worker attaches the signed agreement, read from the same S3.
    const notificationEnv = await serviceEnv('notification', {
      STAFF_EMAIL: `staff-${RUN_ID}@decor.example`,
      ...s3,
    });
    const notification = await start(startInProcess('notification', notificationEnv));
    // The worker answers its health routes on a port of its own.
    const workerEnv = { ...notificationEnv, PORT: (await serviceEnv('notification')).PORT };
    await start(startWorkerInProcess('notification', workerEnv));

    const { gateway, gatewayUrl: listening } = await startGateway(
      {
        user: user.url,
        catalogue: catalogue.url,
        cart: cart.url,
        order: order.url,
        'accounting-sync': accountingSync.url,
        notification: notification.url,
      },
      // This file's Kafka topics and Redis keys (rate-limit counters).
      notificationEnv,
      opts.gatewayEnv,
      gatewayPort,
    );
    if (listening !== gatewayUrl) {
      await gateway.close();
      throw new Error(`gateway listens on ${listening}, not ${gatewayUrl}`);
    }
    return {
      gatewayUrl,
      user,
      cart,
      catalogue,
      order,
      accountingSync,
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

/** The run's S3 (the test infrastructure's), for the services that keep files there. */
function s3Env(): Record<string, string> {
  const { s3 } = testEndpoints();
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}
