/**
 * Issue 14 §1 in a real Chromium against the whole product: in the order's edit mode staff quick-add
 * Labor (a Warehouse line) and a second product, remove the ordered line, change a quantity and
 * Update Order; the customer's page, left open, follows without a reload ('Pending Approval', the
 * new lines and totals). Then the customer changes a quantity of their own order (allowed: the event
 * is weeks away), without a quick add, and staff's open page follows.
 */
import { DEMO_PRODUCTS } from '@decor/catalogue';
import { call } from '@decor/kit/testing';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import { CUSTOMER, chooseOption, orderSetup, STAFF, statusTag } from './support/orders';
import { escapeRegex, pickSelectOption, until, visible } from './support/ui';

const { product, signedInPage, fail } = useBrowserStack({ quickBooks: true, name: 'orders-lines' });
let setup: ReturnType<typeof orderSetup>;

beforeAll(async () => {
  setup = orderSetup(product.api);
  await setup.connectQuickBooks('Quick Add Co');
});

const dollars = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Types `typed` into the quick add's product search and picks the product named `name`. */
async function quickAdd(page: Page, typed: string, name: string, qty: number): Promise<void> {
  const region = page.getByRole('region', { name: 'Quick add' });
  const search = region.getByRole('combobox', { name: 'Product to add' });
  await search.click();
  await search.fill(typed);
  await pickSelectOption(page, new RegExp(`^${escapeRegex(name)} \\(`));
  await region.getByLabel('Quantity to add').fill(String(qty));
  await region.getByRole('button', { name: 'Add', exact: true }).click();
}

/** The Cart card's row of the product `name`. */
const row = (cart: Locator, name: string) =>
  cart.getByRole('row').filter({ has: cart.page().getByRole('cell', { name, exact: true }) });

it("staff quick-add Labor and a product, remove a line, change a quantity and update; the customer's open page follows; the customer then edits a quantity", async () => {
  const customer = await setup.signInApi(CUSTOMER);
  const estimate = await setup.submitEstimate(customer.token, { groupName: 'Quick Add Gala' });
  const ordered = (await call(product.api, `/estimate/${estimate.id}`, { token: customer.token })).body.result
    .CartProducts[0].name as string;
  // A priced Bar Front with a few in stock, not the product already ordered.
  const second = (DEMO_PRODUCTS.BARS?.['Bar Front'] ?? []).find(
    ([, name, price, stock]) => price > 0 && stock >= 3 && name !== ordered,
  );
  if (!second) throw new Error('the demo Bar Fronts need a priced product with stock');
  const [, secondName, secondPrice] = second;

  // The customer keeps their order's page open.
  const page = await signedInPage(CUSTOMER);
  await (async () => {
    await page.goto(`/orders/estimate/${estimate.id}`);
    await visible(page.getByRole('heading', { name: `Estimate #${estimate.DocNumber}` }));
    await visible(statusTag(page, 'Pending'));
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
  })().catch(fail(page, 'orders-lines-customer-open'));

  const staff = await signedInPage(STAFF);
  const staffCart = staff.getByRole('region', { name: 'Cart' });
  await (async () => {
    await staff.goto(`/orders/estimate/${estimate.id}`);
    await visible(statusTag(staff, 'Pending'));
    await chooseOption(staff, 'Edit');
    await quickAdd(staff, 'Lab', 'Labor', 1);
    await visible(row(staffCart, 'Labor'));
    await quickAdd(staff, secondName.slice(0, 5), secondName, 2);
    await visible(row(staffCart, secondName));
    await screenshot(staff, 'orders-lines-quick-add');
    await staffCart.getByRole('button', { name: `Remove ${ordered}` }).click();
    await staffCart.getByLabel('Quantity of Labor').fill('3');
    // The preview: Labor has no price of its own (spec §9), so the subtotal is the second product's.
    await until(
      () => staffCart.getByTestId('order-subtotal').locator('dd').textContent(),
      dollars(2 * secondPrice),
      'the previewed subtotal',
    );
    await staff.getByRole('button', { name: 'Update Order' }).click();
    await visible(staff.getByText('Your order has been updated!', { exact: true }));
    await visible(statusTag(staff, 'Pending Update'));
    expect(await row(staffCart, ordered).count()).toBe(0);
    await visible(row(staffCart, 'Labor').getByRole('cell', { name: '3', exact: true }));
    await visible(row(staffCart, secondName).getByRole('cell', { name: '2', exact: true }));
  })().catch(fail(staff, 'orders-lines-staff'));
  await screenshot(staff, 'orders-lines-staff-updated');

  // The customer's page, left open, follows without a reload.
  const cart = page.getByRole('region', { name: 'Cart' });
  await (async () => {
    await visible(statusTag(page, 'Pending Approval'));
    await visible(row(cart, 'Labor'));
    await visible(row(cart, secondName).getByRole('cell', { name: '2', exact: true }));
    expect(await row(cart, ordered).count()).toBe(0);
    await until(
      () => cart.getByTestId('order-subtotal').locator('dd').textContent(),
      dollars(2 * secondPrice),
      "the customer's subtotal",
    );
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  })().catch(fail(page, 'orders-lines-customer-follows'));

  // The customer may edit (weeks before the event): quantities and removals, no quick add.
  await (async () => {
    await chooseOption(page, 'Edit');
    await visible(cart.getByLabel(`Quantity of ${secondName}`));
    expect(await page.getByRole('region', { name: 'Quick add' }).count()).toBe(0);
    await cart.getByLabel(`Quantity of ${secondName}`).fill('1');
    await page.getByRole('button', { name: 'Update Order' }).click();
    await visible(page.getByText('Your order has been updated!', { exact: true }));
    await visible(row(cart, secondName).getByRole('cell', { name: '1', exact: true }));
    await screenshot(page, 'orders-lines-customer-edited');
  })().catch(fail(page, 'orders-lines-customer-edit'));

  // …and staff's open page follows.
  await until(
    () => staffCart.getByTestId('order-subtotal').locator('dd').textContent(),
    dollars(secondPrice),
    "staff's subtotal after the customer's edit",
  ).catch(fail(staff, 'orders-lines-staff-follows'));
}, 240_000);
