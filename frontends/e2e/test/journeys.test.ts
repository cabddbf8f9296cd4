/**
 * Customer journeys in a real Chromium (Debian's headless shell driven by playwright-core) against
 * the whole product started by this file: the built frontends served by the gateway, and every
 * storefront service on this file's databases and topics. One browser for the file; each journey gets
 * its own context (own session storage) and saves a screenshot under frontends/e2e/test-output/.
 */

import { DEMO_PRODUCTS } from '@decor/catalogue';
import { call, eventually, mailTo } from '@decor/kit/testing';
import { STAFF_EMAIL } from '@decor/testbed';
import type { Page, Route } from 'playwright-core';
import { checkScreen } from './support/a11y';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import {
  fitsViewport,
  fromUserMenu,
  gone,
  openedDialog,
  pathOf,
  settled,
  signIn,
  signInFully,
  texts,
  until,
  userMenuButton,
  visible,
} from './support/ui';

const { product, open } = useBrowserStack({ name: 'journeys' });

const BAR_FRONT = '/inventory/BARS/Bar%20Front';
const barFronts = (DEMO_PRODUCTS.BARS?.['Bar Front'] ?? []).map(([sku, name, price, stock, views]) => ({
  sku,
  name,
  price,
  stock,
  views,
}));
const dollars = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const displayName = (c: { firstName: string }) => `${c.firstName} Customer`;

/** One product card of a list, found by its name (a level-2 heading inside a list item). */
const card = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });

it('a visitor browses BARS / Bar Front: names, photos and More Info, but no price, stock, SKU or add-to-cart', async () => {
  expect(barFronts.length).toBeGreaterThan(2);
  const page = await open();
  // What the API hands the visitor's browser: no price or stock in it either.
  const productBodies: unknown[] = [];
  page.on('response', async (res) => {
    if (new URL(res.url()).pathname.startsWith('/api/product') && res.ok()) {
      productBodies.push(await res.json().catch(() => null));
    }
  });

  await page.goto(BAR_FRONT);
  const names = page.getByRole('main').getByRole('heading', { level: 2 });
  await until(() => texts(names), barFronts.map((p) => p.name).sort(), 'the Bar Front products');
  await visible(page.getByRole('heading', { level: 1, name: /Bar Front/ }));

  // The side navigation is opened from the URL: BARS expanded, Bar Front the current page.
  const nav = page.getByRole('navigation', { name: 'Inventory categories' });
  expect(await nav.getByRole('button', { name: 'BARS' }).getAttribute('aria-expanded')).toBe('true');
  expect(await nav.getByRole('link', { name: 'Bar Front' }).getAttribute('aria-current')).toBe('page');
  // Warehouse products are for staff.
  expect(await nav.getByRole('button', { name: 'Warehouse' }).count()).toBe(0);

  // Every product has its photo (alt text = name) and More Info; nothing priced, nothing to add.
  for (const p of barFronts) {
    const item = card(page, p.name);
    await visible(item.getByRole('img', { name: p.name, exact: true }));
    await visible(item.getByRole('button', { name: 'More Info' }));
  }
  const main = page.getByRole('main');
  const text = await main.textContent();
  expect(text).not.toContain('$');
  expect(text).not.toContain('Call or Email us for Details!');
  expect(text).not.toContain('SKU');
  for (const p of barFronts) expect(text).not.toContain(p.sku);
  expect(await page.getByRole('button', { name: /to the cart$/ }).count()).toBe(0);
  expect(await page.getByRole('spinbutton').count()).toBe(0);
  expect(await page.getByRole('button', { name: /^Cart total/ }).count()).toBe(0);
  // The products come with the page itself now (server-rendered, issue 17), beside any API answer.
  const pageState = await page.evaluate(() => document.getElementById('decor-state')?.textContent ?? '');
  expect(productBodies.length + (pageState.includes('"Images"') ? 1 : 0)).toBeGreaterThan(0);
  expect(JSON.stringify(productBodies) + pageState).not.toMatch(/"(price|quantity)"/);
  await screenshot(page, 'a-visitor-bar-front');

  // The product page: name, description, photo and thumbnails; still no price, SKU or add-to-cart.
  const first = barFronts.find((p) => p.views > 1) ?? barFronts[0];
  if (!first) throw new Error('no demo product');
  await card(page, first.name).getByRole('button', { name: 'More Info' }).click();
  await visible(page.getByRole('heading', { level: 1, name: first.name }));
  expect(pathOf(page)).toBe(`/inventory/BARS/Bar Front/${first.sku}`);
  const thumbs = page.getByRole('button', { name: new RegExp(`^Show photo \\d+ of ${first.name}$`) });
  await until(() => thumbs.count(), first.views - 1, 'the thumbnails');
  const productText = await main.textContent();
  expect(productText).not.toContain('$');
  expect(productText).not.toContain('SKU');
  expect(await page.getByRole('button', { name: /^Add To Cart$|to the cart$/ }).count()).toBe(0);
  await page.getByRole('link', { name: /Back to Bar Front/ }).click();
  await until(async () => pathOf(page), '/inventory/BARS/Bar Front', 'back on the list');
});

it("signing in on an inventory page shows that page's prices and add-to-cart at once", async () => {
  // The demo customer: this journey only looks.
  const page = await open();
  await page.goto(BAR_FRONT);
  const priced = barFronts.find((p) => p.price > 0 && p.stock > 0);
  if (!priced) throw new Error('no priced Bar Front in stock');
  await visible(card(page, priced.name));
  await signInFully(page, {
    email: 'customer@decor.example',
    password: 'demo1234',
    displayName: 'Casey Morgan',
  });
  // The list fetched for the visitor carries no price or stock: signing in must fetch it again.
  const item = card(page, priced.name);
  try {
    await item.getByText(dollars(priced.price), { exact: true }).waitFor({ timeout: 15_000 });
    expect(await item.getByRole('button', { name: `Add ${priced.name} to the cart` }).isEnabled()).toBe(true);
    expect(await item.getByLabel('Qty').isEnabled()).toBe(true);
  } finally {
    await screenshot(page, 'a2-signed-in-on-bar-front');
  }
});

it('a customer signs in, adds two products, checks out with event details and gets a new empty cart', async () => {
  const customer = await product.createCustomer('Rowan');
  const who = { ...customer, displayName: displayName(customer) };
  const page = await open();
  await page.goto('/');
  await signInFully(page, who);
  // To the inventory through the top bar, the landing screen (BARS) and the side navigation.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
  await page.getByRole('main').getByRole('link', { name: 'BARS', exact: true }).click();
  await until(async () => pathOf(page).startsWith('/inventory/BARS/'), true, 'a BARS subcategory');
  await page
    .getByRole('navigation', { name: 'Inventory categories' })
    .getByRole('link', { name: 'Bar Front', exact: true })
    .click();
  await until(async () => pathOf(page), '/inventory/BARS/Bar Front', 'Bar Front');

  // Signed in: the price rule (price when price and stock are above 0, else the call text with the SKU).
  for (const p of barFronts) {
    const item = card(page, p.name);
    const expected =
      p.price > 0 && p.stock > 0 ? dollars(p.price) : `Call or Email us for Details! SKU: ${p.sku}`;
    await visible(item.getByText(expected, { exact: true }));
  }
  const badge = page.getByRole('button', { name: /^Cart total / });
  await until(() => badge.textContent(), '$0.00', 'the empty cart badge');

  // Two products: two of the first in stock, one of the second.
  const [one, two] = barFronts.filter((p) => p.price > 0 && p.stock >= 2);
  if (!one || !two) throw new Error('the demo Bar Fronts need two priced products in stock');
  await card(page, one.name).getByLabel('Qty').fill('2');
  await card(page, one.name)
    .getByRole('button', { name: `Add ${one.name} to the cart` })
    .click();
  await visible(card(page, one.name).getByText('Success!', { exact: true }));
  await card(page, two.name)
    .getByRole('button', { name: `Add ${two.name} to the cart` })
    .click();
  await visible(card(page, two.name).getByText('Success!', { exact: true }));
  const total = dollars(one.price * 2 + two.price);
  await until(() => badge.textContent(), total, 'the badge total');
  await screenshot(page, 'b1-customer-added-two');

  // The badge opens the cart; rename it (Enter saves; a reload shows the saved name).
  await badge.click();
  await visible(page.getByRole('heading', { level: 1, name: 'Your cart' }));
  expect(pathOf(page)).toBe('/checkout/cart');
  const rows = page.getByRole('main').getByRole('row');
  await until(() => rows.count(), 3, 'a header and two lines');
  await visible(page.getByText(`Total: ${total}`, { exact: true }));
  const cartName = page.getByLabel('Cart name');
  await cartName.fill('Hart wedding');
  const renamed = page.waitForResponse(
    (r) => /\/api\/cart\/[^/]+$/.test(r.url()) && r.request().method() === 'PUT',
  );
  await cartName.press('Enter');
  expect((await renamed).status()).toBe(200);
  await page.reload();
  await until(() => page.getByLabel('Cart name').inputValue(), 'Hart wedding', 'the renamed cart');

  // Next → the event form; Go To Summary with the required fields empty shows their errors first.
  await page.getByRole('button', { name: 'Next' }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Event Details' }));
  const companyField = page.getByLabel('Customer Name').first();
  expect(await companyField.inputValue()).toBe('Evergreen Weddings');
  expect(await companyField.isEditable()).toBe(false);
  await page.getByRole('button', { name: 'Go To Summary' }).click();
  await until(() => page.getByText('This field is required', { exact: true }).count(), 3, 'three errors');
  expect(pathOf(page)).toBe('/checkout/event');
  const group = page.getByLabel('Group Name (required)');
  expect(await group.evaluate((el) => el === document.activeElement)).toBe(true);
  await screenshot(page, 'b2-required-errors');

  // Fill them (a date whose day takes 'nd', afternoon/evening and morning times), and one will-call value.
  const year = new Date().getUTCFullYear() + 1;
  const weekday = new Date(Date.UTC(year, 2, 22)).toLocaleDateString('en-US', {
    weekday: 'long',
    timeZone: 'UTC',
  });
  await group.fill('Hart & Lee wedding');
  await pick(page, 'Event Date (required)', `March 22, ${year}`);
  await page.getByLabel('Location (required)').fill('The Old Orchard Barn');
  // Enter in a picker (all required fields valid by now) confirms the time but must not submit the form.
  await pick(page, 'Event Start Time', '5:30 PM', 'Enter');
  await pick(page, 'Event End Time', '11:00 PM');
  await pick(page, 'Load In Time', '9:05 AM');
  await page.getByLabel('Comments On Setup').fill('Bars along the east wall.');
  await page.getByRole('button', { name: 'Will Call Order' }).click();
  await pick(page, 'Pickup Date', `March 3, ${year}`);
  await until(() => page.getByText('This field is required', { exact: true }).count(), 0, 'errors cleared');
  await page.getByRole('button', { name: 'Go To Summary' }).click();

  // The summary: lines, total, event details in two tables (fields 1-6, 7-13), formatted.
  await visible(page.getByRole('heading', { level: 1, name: 'Summary' }));
  expect(pathOf(page)).toBe('/checkout/summary');
  await visible(page.getByText(total, { exact: true }).last());
  const part1 = page.getByRole('table', { name: 'Event details, part 1' });
  const part2 = page.getByRole('table', { name: 'Event details, part 2' });
  expect(await texts(part1.getByRole('rowheader'))).toEqual([
    'Customer Name',
    'Group Name',
    'Event Date',
    'Location',
    'Operations Manager',
    'Event Start Time',
  ]);
  expect(await texts(part2.getByRole('rowheader'))).toEqual([
    'Event End Time',
    'Room',
    'Load In Time',
    'Set By Time',
    'Strike Time',
    'Comments On Setup',
    'Comments On Event',
  ]);
  const value = (table: typeof part1, field: string) =>
    table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: field, exact: true }) })
      .getByRole('cell')
      .textContent();
  expect(await value(part1, 'Customer Name')).toBe('Evergreen Weddings');
  expect(await value(part1, 'Group Name')).toBe('Hart & Lee wedding');
  expect(await value(part1, 'Event Date')).toBe(`${weekday}, March 22nd, ${year}`);
  expect(await value(part1, 'Event Start Time')).toBe('5:30 PM');
  expect(await value(part2, 'Event End Time')).toBe('11:00 PM');
  expect(await value(part2, 'Load In Time')).toBe('9:05 AM');
  const willCall = page.getByRole('table', { name: 'Will call order' });
  expect(await value(willCall, 'Pickup Date')).toMatch(new RegExp(`^\\w+day, March 3rd, ${year}$`));

  // Terms collapsed until opened; Submit Order disabled until the box is ticked.
  const submit = page.getByRole('button', { name: 'Submit Order' });
  expect(await submit.isDisabled()).toBe(true);
  await visible(page.getByText('You must agree before submitting.', { exact: true }));
  await page.getByRole('button', { name: 'Terms & Conditions' }).click();
  await visible(page.getByText(/\$35\.00 per staff member per hour/));
  await page.getByRole('checkbox', { name: 'I agree to the Terms & Conditions' }).check();
  expect(await submit.isDisabled()).toBe(false);
  await gone(page.getByText('You must agree before submitting.', { exact: true }));
  await screenshot(page, 'b3-summary');

  // Submit: the dialog shows its spinner while the estimate is being created, then the success.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/estimate', async (route: Route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await submit.click();
  const dialog = page.getByRole('dialog', { name: 'Submit Order' });
  await visible(dialog.getByText('Submitting your order…'));
  release();
  await visible(dialog.getByText('Your order has been submitted and is pending review.', { exact: true }));
  await visible(dialog.getByText(/^Estimate \S+\./));
  await screenshot(page, 'b4-submitted');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await until(async () => pathOf(page), '/', 'home after Done');

  // A new, empty, active cart is the session's; the estimate is pending review.
  await fromUserMenu(page, who.displayName, 'Checkout');
  await visible(page.getByText('Your cart is empty', { exact: true }));
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your cart');
  expect(await page.getByRole('link', { name: 'Browse the inventory' }).getAttribute('href')).toBe(BAR_FRONT);
  expect(await page.getByLabel('Cart name').inputValue()).not.toBe('Hart wedding');
  const token = (await page.evaluate(() => sessionStorage.getItem('token'))) ?? '';
  const estimates = await call(product.api, '/estimate', { token });
  expect(estimates.body.result).toEqual([
    expect.objectContaining({
      status: 'Pending',
      groupName: 'Hart & Lee wedding',
      location: 'The Old Orchard Barn',
    }),
  ]);
  await screenshot(page, 'b5-new-empty-cart');
});

/**
 * Types into an antd date or time picker found by its label and leaves it with Tab, or confirms it with
 * Enter: then the picker's panel closes and the value stays, while the surrounding form is not submitted
 * (no submit event, the page stays where it was). The page keeps the submit listener this adds.
 */
async function pick(page: Page, label: string, typed: string, key: 'Tab' | 'Enter' = 'Tab'): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(typed);
  if (key === 'Tab') {
    await input.press('Tab');
    await until(() => input.inputValue(), typed, `${label} = ${typed}`);
    return;
  }
  const path = pathOf(page);
  await page.evaluate(() => {
    const counted = window as unknown as { formSubmits: number };
    counted.formSubmits = 0;
    document.addEventListener('submit', () => counted.formSubmits++, { capture: true });
  });
  await input.press('Enter');
  expect(await page.evaluate(() => (window as unknown as { formSubmits: number }).formSubmits)).toBe(0);
  expect(pathOf(page)).toBe(path);
  await until(() => input.inputValue(), typed, `${label} = ${typed} after Enter`);
  await until(() => page.locator('.ant-picker-dropdown:visible').count(), 0, `${label}'s panel closed`);
  expect(pathOf(page)).toBe(path);
}

it('carts: create one, make it active, delete the inactive one (the active one cannot be deleted)', async () => {
  const customer = await product.createCustomer('Sage');
  const who = { ...customer, displayName: displayName(customer) };
  const page = await open();
  await page.goto('/');
  await signInFully(page, who);
  await fromUserMenu(page, who.displayName, 'Carts');
  await visible(page.getByRole('heading', { level: 1, name: 'Carts' }));
  const renames = page.getByRole('button', { name: /^Rename / });
  const deletes = page.getByRole('button', { name: /^Delete / });
  await until(() => renames.count(), 1, 'the first cart');
  await visible(page.getByText('Active', { exact: true }));
  expect(await deletes.count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Set Active' }).count()).toBe(0);

  // Rename it on its card (Enter saves), so that the two carts can be told apart.
  const firstName = 'Spring gala';
  await renames.click();
  const nameInput = page.getByRole('textbox', { name: 'Cart name' });
  await nameInput.fill(firstName);
  await nameInput.press('Enter');
  await visible(page.getByRole('main').getByRole('link', { name: firstName, exact: true }));
  expect(await renames.getAttribute('aria-label')).toBe(`Rename ${firstName}`);

  // Create: a new inactive cart, which can be deleted or made active.
  await page.getByRole('button', { name: 'Create Cart' }).click();
  await until(() => renames.count(), 2, 'two carts');
  await until(() => deletes.count(), 1, 'one deletable cart');
  const newName = ((await deletes.getAttribute('aria-label')) ?? '').replace(/^Delete /, '');
  expect(newName).not.toBe(firstName);
  expect(newName).not.toBe('');

  // Set Active: the new cart is now the active one, and the first becomes deletable.
  await page.getByRole('button', { name: 'Set Active' }).click();
  await until(
    async () => (await deletes.getAttribute('aria-label')) ?? '',
    `Delete ${firstName}`,
    'the first cart deletable',
  );
  expect(await page.getByRole('button', { name: 'Set Active' }).count()).toBe(1);
  await screenshot(page, 'c1-carts-two');
  // The session's cart follows: the checkout shows the new cart.
  await fromUserMenu(page, who.displayName, 'Checkout');
  await until(() => page.getByLabel('Cart name').inputValue(), newName, 'the active cart in checkout');

  // Delete the inactive (first) cart, confirming; the active one offers no Delete.
  await fromUserMenu(page, who.displayName, 'Carts');
  await until(() => renames.count(), 2, 'two carts again');
  await page.getByRole('button', { name: `Delete ${firstName}` }).click();
  await visible(page.getByText('Delete this cart?', { exact: true }));
  await settled(page.locator('.ant-popover').filter({ hasText: 'Delete this cart?' }));
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await until(() => renames.count(), 1, 'one cart left');
  expect(await texts(page.getByRole('main').getByRole('link', { name: newName }))).toEqual([newName]);
  expect(await deletes.count()).toBe(0);
  await page.reload();
  await until(() => renames.count(), 1, 'one cart after a reload');
  expect(await renames.getAttribute('aria-label')).toBe(`Rename ${newName}`);
  await screenshot(page, 'c2-carts-one');
});

it('profile: change the password (with its validation), sign out, sign in with the new password', async () => {
  const customer = await product.createCustomer('Quinn');
  const who = { ...customer, displayName: displayName(customer) };
  const page = await open();
  await page.goto('/');
  await signInFully(page, who);
  await fromUserMenu(page, who.displayName, 'Profile');
  await visible(page.getByRole('heading', { level: 1, name: 'Profile' }));
  const main = page.getByRole('main');
  await visible(main.getByText(who.displayName, { exact: true }));
  await visible(main.getByText(who.email, { exact: true }));
  expect(await page.getByRole('heading', { name: 'Change Trucking Fee' }).count()).toBe(0);

  const current = page.getByLabel('Current Password', { exact: true });
  const password = page.getByLabel('Password', { exact: true });
  const confirm = page.getByLabel('Confirm Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Submit' });
  await submit.click();
  await until(() => page.getByText('This field is required', { exact: true }).count(), 3, 'all required');
  await current.fill(who.password);
  await password.fill('ab');
  await confirm.fill('ab');
  await submit.click();
  await until(
    () => page.getByText('Password must be at least 3 characters', { exact: true }).count(),
    2,
    'too short',
  );
  await password.fill('garden-party-7');
  await confirm.fill('garden-party-8');
  await submit.click();
  await visible(page.getByText('Password does not match', { exact: true }));
  await confirm.fill(' garden-party-7 ');
  await submit.click();
  await visible(page.getByText('Your password has been changed.', { exact: true }));
  await screenshot(page, 'd1-password-changed');

  await fromUserMenu(page, who.displayName, 'Logout');
  await visible(page.getByRole('button', { name: 'Login', exact: true }));
  expect(await userMenuButton(page, who.displayName).count()).toBe(0);
  await signIn(page, who, 'Incorrect username or password');
  await signInFully(page, { ...who, password: 'garden-party-7' });
  await fromUserMenu(page, who.displayName, 'Profile');
  await visible(main.getByText(who.email, { exact: true }));
  await screenshot(page, 'd2-signed-in-again');
});

it('password reset: asked for from the login modal, the link from the e-mail, a new password that signs in', async () => {
  const customer = await product.createCustomer('Ellis');
  const who = { ...customer, displayName: displayName(customer) };
  const page = await open();
  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const modal = await openedDialog(page, 'Welcome');
  // Without an e-mail the forgotten-password action asks for one.
  await modal.getByRole('button', { name: 'Forgot your password?' }).click();
  await visible(modal.getByText('Please provide a valid email address', { exact: true }));
  await modal.getByLabel('Email').fill(who.email);
  await modal.getByRole('button', { name: 'Forgot your password?' }).click();
  await visible(modal.getByText(/a link to reset your password is on its way/));

  const mail = await eventually(
    async () => (await mailTo(who.email)).find((m) => /\/reset\/[\w.%-]+/.test(m.Text)),
    30_000,
    'the reset e-mail',
  );
  const link = /(https?:\/\/\S+\/reset\/[\w.%-]+)/.exec(mail.Text)?.[1] ?? '';
  expect(link).not.toBe('');
  await page.goto(new URL(link).pathname);
  await visible(page.getByRole('heading', { level: 1, name: 'Reset Your Password' }));
  await visible(page.getByText(who.email, { exact: true }));
  const password = page.getByLabel('Password', { exact: true });
  const confirm = page.getByLabel('Confirm Password', { exact: true });
  await password.fill('orchard-lights');
  await confirm.fill('orchard-light');
  await page.getByRole('button', { name: 'Submit' }).click();
  await visible(page.getByText('Passwords do not match', { exact: true }));
  await confirm.fill('orchard-lights');
  await page.getByRole('button', { name: 'Submit' }).click();
  await visible(page.getByText(/Your password has been reset/));
  await screenshot(page, 'e1-reset-done');

  // The link is used up: opening it again sends the visitor home.
  await page.goto(new URL(link).pathname);
  await until(async () => pathOf(page), '/', 'home after a used link');

  await signIn(page, who, 'Incorrect username or password');
  await signInFully(page, { ...who, password: 'orchard-lights' });
  await screenshot(page, 'e2-signed-in-with-new-password');
});

it("contact form as a visitor: from the footer, the form's texts, sent, the e-mail to the staff with reply-to the visitor", async () => {
  const page = await open();
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Footer' }).getByRole('button', { name: 'Contact us' }).click();
  const modal = page.getByRole('dialog', { name: 'Contact us' });
  await visible(modal);
  // Nothing filled: the spec's texts, the first field focused.
  await modal.getByRole('button', { name: 'Send' }).click();
  await visible(modal.getByText('Please provide a valid email address', { exact: true }));
  await until(
    () => modal.getByText('This field is required', { exact: true }).count(),
    2,
    'two required texts',
  );
  await until(
    () => page.evaluate(() => document.activeElement?.id ?? ''),
    'name',
    'the first invalid field focused',
  );
  // After the errors' fade-in: a frame of it reads as low contrast.
  await checkScreen(page, 'the contact form with its errors');

  const visitor = `visitor-${Date.now()}@planners.example`;
  const name = `Robin <b>Planner</b> ${Date.now() % 100_000}`;
  const year = new Date().getUTCFullYear() + 1;
  await modal.getByLabel('Name (required)').fill(name);
  await modal.getByLabel('Email (required)').fill(visitor);
  await modal.getByLabel('Phone').fill('+1 555 0199');
  await pick(page, 'Event Date', `June 12, ${year}`, 'Enter');
  await modal
    .getByLabel('Message (required)')
    .fill('Do you rent <script>alert(1)</script> gold chargers?\nWe need 120.');
  await modal.getByRole('button', { name: 'Send' }).click();
  await visible(
    modal.getByText('Thank you! Your message has been sent. We will get back to you soon.', { exact: true }),
  );
  await screenshot(page, 'g1-contact-sent');
  // The success text shows for 2500 ms (spec §9), then the form closes.
  await gone(modal);

  const mail = await eventually(
    async () => (await mailTo(STAFF_EMAIL)).find((m) => m.Subject === `Website enquiry from ${name}`),
    30_000,
    'the enquiry e-mail to the staff',
  );
  expect(mail.ReplyTo?.map((a) => a.Address)).toEqual([visitor]);
  expect(mail.Text).toContain('Phone: +1 555 0199');
  expect(mail.Text).toMatch(new RegExp(`Event Date: \\w+day, June 12th, ${year}`));
  expect(mail.Text).toContain('Do you rent <script>alert(1)</script> gold chargers?\nWe need 120.');
  expect(mail.HTML).toContain(
    'Do you rent &lt;script&gt;alert(1)&lt;/script&gt; gold chargers?<br>We need 120.',
  );
  expect(mail.HTML).toContain('Robin &lt;b&gt;Planner&lt;/b&gt;');
}, 180_000);

it('gallery viewer by keyboard: → and ← with the counter, blocked until the photo loads, arrows hidden at the ends, Escape closes', async () => {
  const page = await open();
  await page.goto('/gallery');
  const tiles = page.getByRole('button', { name: /^Open / });
  await visible(tiles.first());
  const m = await tiles.count();
  expect(m).toBeGreaterThan(3);
  const srcOf = (i: number) => tiles.nth(i).getByRole('img').getAttribute('src');

  // Hold the second photo: navigation waits until the current photo has loaded.
  const secondSrc = (await srcOf(1)) ?? '';
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.toString() === secondSrc,
    async (route) => {
      await held;
      await route.continue();
    },
  );

  await tiles.first().click();
  const viewer = page.getByRole('dialog', { name: 'Image viewer' });
  const counter = viewer.getByText(/^\d+ of \d+$/);
  await until(() => counter.textContent(), `1 of ${m}`, 'the first photo');
  expect(await viewer.getByRole('button', { name: 'Previous image' }).count()).toBe(0);
  expect(
    await viewer.getByRole('button', { name: 'Close' }).evaluate((el) => el === document.activeElement),
  ).toBe(true);
  await until(() => viewer.getByRole('button', { name: 'Next image' }).isEnabled(), true, 'photo 1 loaded');
  await page.keyboard.press('ArrowRight');
  await until(() => counter.textContent(), `2 of ${m}`, 'the second photo');
  await visible(viewer.getByRole('button', { name: 'Previous image' }));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(300);
  expect(await counter.textContent()).toBe(`2 of ${m}`);
  release();
  await until(() => viewer.getByRole('button', { name: 'Next image' }).isEnabled(), true, 'photo 2 loaded');
  await page.keyboard.press('ArrowRight');
  await until(() => counter.textContent(), `3 of ${m}`, 'the third photo');
  await until(
    () => viewer.getByRole('button', { name: 'Previous image' }).isEnabled(),
    true,
    'photo 3 loaded',
  );
  await page.keyboard.press('ArrowLeft');
  await until(() => counter.textContent(), `2 of ${m}`, 'back to the second photo');
  await screenshot(page, 'f1-viewer', { fullPage: false });
  await page.keyboard.press('Escape');
  await gone(viewer);

  // The last photo: no next arrow, and → does nothing.
  await tiles.last().click();
  await until(() => counter.textContent(), `${m} of ${m}`, 'the last photo');
  expect(await viewer.getByRole('button', { name: 'Next image' }).count()).toBe(0);
  await until(() => viewer.getByRole('button', { name: 'Previous image' }).isEnabled(), true, 'last loaded');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(200);
  expect(await counter.textContent()).toBe(`${m} of ${m}`);
  await page.keyboard.press('Escape');
  await gone(viewer);
});

it('a phone (360×740) walks through the inventory with the side-navigation toggle', async () => {
  const page = await open({ width: 360, height: 740 });
  await page.goto('/inventory');
  await visible(page.getByRole('heading', { level: 1, name: 'Our inventory' }));
  const toggle = page.getByRole('button', { name: 'Categories' });
  const nav = page.getByRole('navigation', { name: 'Inventory categories' });
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  expect(await nav.isVisible()).toBe(false);
  expect(await fitsViewport(page)).toBe(true);

  await toggle.click();
  await visible(nav);
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  await nav.getByRole('button', { name: 'BARS' }).click();
  await nav.getByRole('link', { name: 'Bar Front' }).click();
  await until(async () => pathOf(page), '/inventory/BARS/Bar Front', 'Bar Front');
  // Choosing a subcategory closes the navigation on a phone.
  await until(() => nav.isVisible(), false, 'the navigation closed');
  const names = page.getByRole('main').getByRole('heading', { level: 2 });
  await until(() => texts(names), barFronts.map((p) => p.name).sort(), 'the Bar Front products');
  expect(await fitsViewport(page)).toBe(true);
  await screenshot(page, 'g1-phone-bar-front');

  // Open it again: Bar Front is the current page; go to SEATING / Chairs.
  await toggle.click();
  await visible(nav);
  expect(await nav.getByRole('link', { name: 'Bar Front' }).getAttribute('aria-current')).toBe('page');
  await nav.getByRole('button', { name: 'SEATING' }).click();
  await nav.getByRole('link', { name: 'Chairs' }).click();
  await until(async () => pathOf(page), '/inventory/SEATING/Chairs', 'Chairs');
  const chairs = Object.values(DEMO_PRODUCTS.SEATING?.Chairs ?? []).map(([, name]) => name);
  await until(() => texts(names), chairs.sort(), 'the chairs');
  await card(page, chairs[0] ?? '')
    .getByRole('button', { name: 'More Info' })
    .click();
  await visible(page.getByRole('heading', { level: 1, name: chairs[0] }));
  expect(await fitsViewport(page)).toBe(true);
  await screenshot(page, 'g2-phone-product');
  await page.getByRole('link', { name: /Back to Chairs/ }).click();
  await until(() => texts(names), chairs.sort(), 'the chairs again');
});
