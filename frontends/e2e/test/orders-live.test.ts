/**
 * Live order status in a real Chromium against the whole product (gateway, services, accounting-sync,
 * the QuickBooks emulator), in one flow: a customer submits an order in the checkout and keeps its page
 * open; staff, in another browser context, open the same estimate on the order screen and send it to
 * QuickBooks from there; the customer's page turns Open without a reload (Server-Sent Events from the
 * gateway: the customer's page has no polling of its own).
 */
import { DEMO_PRODUCTS } from '@decor/catalogue';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import { CUSTOMER, chooseOption, orderSetup, STAFF, statusTag } from './support/orders';
import { fromUserMenu, pathOf, until, visible } from './support/ui';

const { product, signedInPage, fail } = useBrowserStack({ quickBooks: true, name: 'orders-live' });
let setup: ReturnType<typeof orderSetup>;

beforeAll(async () => {
  setup = orderSetup(product.api);
});

const BAR_FRONT = '/inventory/BARS/Bar%20Front';
const dollars = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const fromDollars = (text: string | null) => Number((text ?? '').replace(/[$,]/g, ''));

/** One product card of a list, found by its name (a level-2 heading inside a list item). */
const card = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });

/** Types a date into an antd picker found by its label and leaves it with Tab. */
async function pickDate(page: Page, label: string, typed: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(typed);
  await input.press('Tab');
  await until(() => input.inputValue(), typed, `${label} = ${typed}`);
}

it('a customer submits an order and keeps its page open; staff send it to QuickBooks from the order screen; the page turns Open without a reload', async () => {
  await setup.connectQuickBooks('Live Status Co');
  const [priced] = (DEMO_PRODUCTS.BARS?.['Bar Front'] ?? []).filter(
    ([, , price, stock]) => price > 0 && stock > 0,
  );
  if (!priced) throw new Error('the demo Bar Fronts need a priced product in stock');
  const [, name, price] = priced;

  // The customer fills the cart and submits the order through the checkout.
  const page = await signedInPage(CUSTOMER);
  let docNumber = '';
  await (async () => {
    await page.goto(BAR_FRONT);
    const badge = page.getByRole('button', { name: /^Cart total / });
    await visible(badge);
    const before = fromDollars(await badge.textContent());
    await card(page, name)
      .getByRole('button', { name: `Add ${name} to the cart` })
      .click();
    await visible(card(page, name).getByText('Success!', { exact: true }));
    await until(() => badge.textContent(), dollars(before + price), 'the badge total');
    await badge.click();
    await visible(page.getByRole('heading', { level: 1, name: 'Your cart' }));
    await page.getByRole('button', { name: 'Next' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Event Details' }));
    await page.getByLabel('Group Name (required)').fill('Live Gala');
    await pickDate(page, 'Event Date (required)', `May 5, ${new Date().getUTCFullYear() + 2}`);
    await page.getByLabel('Location (required)').fill('Glass House');
    await page.getByRole('button', { name: 'Go To Summary' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Summary' }));
    await page.getByRole('checkbox', { name: 'I agree to the Terms & Conditions' }).check();
    await page.getByRole('button', { name: 'Submit Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit Order' });
    await visible(dialog.getByText('Your order has been submitted and is pending review.', { exact: true }));
    const estimateText = (await dialog.getByText(/^Estimate \S+\./).textContent()) ?? '';
    docNumber = /^Estimate (\S+)\./.exec(estimateText)?.[1] ?? '';
    expect(docNumber).toMatch(/^\d+$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await until(async () => pathOf(page), '/', 'home after Done');

    // …and opens it from the orders list, and keeps that page open.
    await fromUserMenu(page, CUSTOMER.displayName, 'Orders');
    await page.getByRole('link', { name: docNumber, exact: true }).click();
    await visible(page.getByRole('heading', { name: `Estimate #${docNumber}` }));
    await visible(statusTag(page, 'Pending'));
    await visible(page.getByText('Live Gala', { exact: true }).first());
  })().catch(fail(page, 'orders-live-customer'));
  const estimatePath = pathOf(page);
  expect(estimatePath).toMatch(/^\/orders\/estimate\/[^/]+$/);
  // Anything that reloads the page would forget this.
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  // Staff, in their own browser context, open the same estimate and send it to QuickBooks from there.
  const staff = await signedInPage(STAFF);
  await (async () => {
    await staff.goto(estimatePath);
    await visible(staff.getByRole('heading', { name: `Estimate #${docNumber}` }));
    await visible(statusTag(staff, 'Pending'));
    await visible(staff.getByText('Not in QuickBooks yet', { exact: true }));
    await chooseOption(staff, 'Send to QuickBooks');
    await visible(staff.getByText('The order is being sent to QuickBooks.', { exact: true }));
    await statusTag(staff, 'Open').waitFor({ state: 'visible', timeout: 45_000 });
  })().catch(fail(staff, 'orders-live-staff'));

  // The customer's page, left open, turns Open by itself.
  await statusTag(page, 'Open')
    .waitFor({ state: 'visible', timeout: 30_000 })
    .catch(fail(page, 'orders-live-not-open'));
  expect(await statusTag(page, 'Pending').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(pathOf(page)).toBe(estimatePath);
  await screenshot(page, 'orders-live-open');
}, 240_000);
