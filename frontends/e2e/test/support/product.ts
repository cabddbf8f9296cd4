import path from 'node:path';
import type { CatalogueContext } from '@decor/catalogue';
import { DEMO_PRODUCTS } from '@decor/catalogue';
import { buildFrontends, describeFrontendBuilds, REPO_ROOT } from '@decor/cli';
import { signedIn } from '@decor/gateway/testing';
import type { StartedService } from '@decor/kit';
import { eventually } from '@decor/kit/testing';
import { paymentsEnv, testEndpoints } from '@decor/stack';
import { type Customer, startStorefrontStack } from '@decor/testbed';
import type { UserContext } from '@decor/user';
import { type QuickBooksStack, startQuickBooksStack } from './quickbooks';

export type { Customer };

/** Where the built frontends live: FRONTENDS_DIR/<app>/dist, as `npm start` serves them. */
export const FRONTENDS_DIR = path.join(REPO_ROOT, 'frontends');

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

/**
 * The whole product for browser journeys, in this test process on this file's databases and topics:
 * the frontends built (or reused when their inputs did not change) and the storefront stack of the
 * gateway tests, its gateway serving the built frontends from FRONTENDS_DIR.
 */
export async function startProduct(log: (line: string) => void = () => {}): Promise<RunningProduct> {
  await buildAll(log);
  let since = Date.now();
  const stack = await startStorefrontStack({ gatewayEnv: gatewayEnv() });
  log(`product: services and gateway started (${Date.now() - since} ms)`);
  since = Date.now();
  await waitForDemoCatalogue(stack);
  log(`product: the cart knows the demo catalogue (${Date.now() - since} ms)`);
  return {
    url: stack.gatewayUrl,
    api: stack.api,
    user: stack.user,
    createCustomer: async (name) => {
      const customer = await stack.createCustomer(name);
      await (await signedIn(stack.api, customer.email, customer.password)).activeCart();
      return customer;
    },
    stop: () => stack.stop(),
  };
}

export interface RunningQuickBooksProduct {
  /** The gateway: the shell at /, /callback where QuickBooks sends the browser back, the API under /api. */
  url: string;
  api: string;
  user: QuickBooksStack['user'];
  /** The catalogue, for journeys that seed products (saveProduct of @decor/catalogue). */
  catalogue: StartedService<CatalogueContext>;
  /** The order service (an offer's end is written there: the product reaches it only with time). */
  order: QuickBooksStack['order'];
  accountingSync: QuickBooksStack['accountingSync'];
  stop(): Promise<void>;
}

/**
 * The whole product with accounting-sync, every service pointed at the QuickBooks emulator and
 * QBO_REDIRECT_URI = <gateway>/callback (`test/support/quickbooks.ts`).
 */
export async function startProductWithQuickBooks(
  log: (line: string) => void = () => {},
): Promise<RunningQuickBooksProduct> {
  await buildAll(log);
  let since = Date.now();
  const stack = await startQuickBooksStack({ gatewayEnv: gatewayEnv() });
  log(`product: services and gateway started (${Date.now() - since} ms)`);
  since = Date.now();
  await waitForDemoCatalogue(stack);
  log(`product: the cart knows the demo catalogue (${Date.now() - since} ms)`);
  return {
    url: stack.gatewayUrl,
    api: `${stack.gatewayUrl}/api`,
    user: stack.user,
    catalogue: stack.catalogue,
    order: stack.order,
    accountingSync: stack.accountingSync,
    stop: () => stack.stop(),
  };
}

/**
 * The gateway serves the built frontends; its Content-Security-Policy allows this run's image host
 * and the payments emulator's card frame (the accept screen's, issue 30).
 */
function gatewayEnv(): Record<string, string> {
  const { s3 } = testEndpoints();
  const { PAYMENTS_FRAME_URL } = paymentsEnv(testEndpoints(), {});
  // Every journey's browser is one client (127.0.0.1): the per-address limit on sign-in, reset and
  // the contact form would refuse a file's journeys and polls (infra/testbed/test/rate-limits.test.ts tests it).
  return {
    FRONTENDS_DIR,
    S3_PUBLIC_URL: `${s3.endpoint}/${s3.bucket}`,
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    ...(PAYMENTS_FRAME_URL ? { PAYMENTS_FRAME_URL } : {}),
  };
}

async function buildAll(log: (line: string) => void): Promise<void> {
  const built = Date.now();
  const builds = await buildFrontends();
  log(`frontends: ${describeFrontendBuilds(builds)} (${Date.now() - built} ms)`);
}

/**
 * Right after start the cart service is still copying the demo catalogue from its events; a line
 * saved before its product arrives is refused. Journeys start once every demo product is known
 * (the stack is stopped when that never happens).
 */
export async function waitForDemoCatalogue(stack: {
  cart: { ctx: { products: { countDocuments(): Promise<number> } } };
  stop(): Promise<void>;
}): Promise<void> {
  try {
    const demoProducts = Object.values(DEMO_PRODUCTS).flatMap((subs) => Object.values(subs).flat()).length;
    await eventually(
      async () => ((await stack.cart.ctx.products.countDocuments()) >= demoProducts ? true : undefined),
      30_000,
      "the cart service's copy of the demo catalogue",
    );
  } catch (err) {
    await stack.stop().catch(() => {});
    throw err;
  }
}
