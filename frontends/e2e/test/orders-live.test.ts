/**
 * Live order status in a real Chromium against the whole product (gateway, services, accounting-sync,
 * the QuickBooks emulator): a customer looking at their order sees it turn Open when staff send it
 * to QuickBooks elsewhere — without reloading the page (Server-Sent Events from the gateway).
 */
import { qboConsentRedirect } from '@decor/infra';
import { call, eventually } from '@decor/kit/src/testing';
import { launchBrowser, type RunningBrowser, screenshot } from './support/browser';
import { type RunningQuickBooksProduct, startProductWithQuickBooks } from './support/product';
import { newEmulatorCompany } from './support/quickbooks';
import { signInFully, visible } from './support/ui';

let product: RunningQuickBooksProduct;
let chromium: RunningBrowser;

beforeAll(async () => {
  product = await startProductWithQuickBooks((line) => process.stderr.write(`${line}\n`));
  chromium = await launchBrowser(product.url);
}, 240_000);

afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

const STAFF = { email: 'staff@decor.example', password: 'demo1234' };
const CUSTOMER = { email: 'customer@decor.example', password: 'demo1234', displayName: 'Casey Morgan' };

async function signInApi(who: { email: string; password: string }) {
  const answer = await call(product.api, '/auth/user', {
    method: 'POST',
    json: { email: who.email, password: who.password },
  });
  expect(answer.status).toBe(200);
  return answer.body.result as { token: string; redirecturl?: string };
}

/** Staff connect the product to a fresh emulator company (as the consent page would). */
async function connectQuickBooks(): Promise<string> {
  const { realmId } = await newEmulatorCompany('Live Status Co');
  const staff = await signInApi(STAFF);
  if (!staff.redirecturl) throw new Error('staff sign-in gave no QuickBooks redirect');
  const back = await qboConsentRedirect(staff.redirecturl, realmId);
  const connected = await call(product.api, `/auth/accessToken${back.search}`, { token: staff.token });
  expect(connected.status).toBe(200);
  return staff.token;
}

/** The customer's order request, through the API as the checkout sends it. */
async function submitEstimate(token: string): Promise<string> {
  const session = await call(product.api, '/auth/jwt', { token });
  const cartId = session.body.result.cart.id as string;
  const products = await call(product.api, '/product?gt=quantity:0&limit=1', { token });
  const productId = products.body.result[0].id as string;
  const saved = await call(product.api, '/saveBulk/cartProduct', {
    method: 'POST',
    token,
    json: [{ CartId: cartId, ProductId: productId, qty: 1, price: 1 }],
  });
  expect(saved.status).toBe(200);
  const estimate = await call(product.api, '/estimate', {
    method: 'POST',
    token,
    json: {
      CartId: cartId,
      status: 'Pending',
      groupName: 'Live Gala',
      eventDate: '2031-05-05',
      location: 'Hall',
    },
  });
  expect(estimate.status).toBe(201);
  return estimate.body.result.id as string;
}

it('shows the customer their estimate turning Open when staff send it to QuickBooks, without a reload', async () => {
  const staffToken = await connectQuickBooks();
  const customer = await signInApi(CUSTOMER);
  const estimateId = await submitEstimate(customer.token);

  const { page } = await chromium.newPage();
  await page.goto('/', { timeout: 60_000 });
  await signInFully(page, CUSTOMER);
  await page.goto(`/orders/estimate/${estimateId}`);
  await visible(page.getByText('Live Gala').first());
  const status = page.getByText('Pending', { exact: true }).first();
  await visible(status);
  // Anything that reloads the page would forget this.
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  // Staff send it from elsewhere; it lands in QuickBooks once the customer's records are there.
  await eventually(async () => {
    const sent = await call(product.api, '/qbo/estimate', {
      method: 'POST',
      token: staffToken,
      json: { id: estimateId },
    });
    return sent.status === 202 || sent.status === 200 ? sent : undefined;
  }, 30_000);
  await visible(page.getByText('Open', { exact: true }).first()).catch(async (err) => {
    await screenshot(page, 'orders-live-not-open');
    throw err;
  });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(new URL(page.url()).pathname).toBe(`/orders/estimate/${estimateId}`);
}, 120_000);
