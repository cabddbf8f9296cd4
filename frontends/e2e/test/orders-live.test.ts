/**
 * Live order status in a real Chromium against the whole product (gateway, services, accounting-sync,
 * the QuickBooks emulator): a customer looking at their order sees it turn Open when staff send it
 * to QuickBooks elsewhere — without reloading the page (Server-Sent Events from the gateway).
 */
import { launchBrowser, type RunningBrowser, screenshot } from './support/browser';
import { CUSTOMER, orderSetup } from './support/orders';
import { type RunningQuickBooksProduct, startProductWithQuickBooks } from './support/product';
import { signInFully, visible } from './support/ui';

let product: RunningQuickBooksProduct;
let chromium: RunningBrowser;

beforeAll(async () => {
  product = await startProductWithQuickBooks((line) => process.stderr.write(`${line}\n`));
  chromium = await launchBrowser(product.url);
  setup = orderSetup(product.api);
}, 240_000);

afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

let setup: ReturnType<typeof orderSetup>;

it('shows the customer their estimate turning Open when staff send it to QuickBooks, without a reload', async () => {
  const staffToken = await setup.connectQuickBooks('Live Status Co');
  const customer = await setup.signInApi(CUSTOMER);
  const { id: estimateId } = await setup.submitEstimate(customer.token, { groupName: 'Live Gala' });

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
  await setup.sendToQuickBooks(staffToken, estimateId);
  await visible(page.getByText('Open', { exact: true }).first()).catch(async (err) => {
    await screenshot(page, 'orders-live-not-open');
    throw err;
  });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(new URL(page.url()).pathname).toBe(`/orders/estimate/${estimateId}`);
}, 120_000);
