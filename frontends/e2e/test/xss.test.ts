/**
 * What staff type in is shown as text, everywhere (issue 10 "Security of what staff type in"): a
 * product name and description and a company name holding `<script>`, `<img src=x onerror=…>` and a
 * `javascript:` link are seeded as the services store them, then a customer and staff (QuickBooks
 * connected, as they work) walk every screen that shows them: product list, product page, cart, the
 * customer's order page, staff's orders list and order page. Each screen shows the markup literally;
 * no element of it reaches the DOM (no `img[src=x]`, no `javascript:` link, no script carrying the
 * payload), no payload ran (its window flag stays unset, no dialog opened) and the
 * Content-Security-Policy reported nothing.
 */
import { saveProduct } from '@decor/catalogue';
import { signedIn } from '@decor/gateway/testing';
import { call, RUN_ID } from '@decor/kit/testing';
import { hashPassword, newUserWithEvent } from '@decor/user';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import { orderSetup, STAFF } from './support/orders';
import { escapeRegex, pathOf, signInFully, until, visible } from './support/ui';

// Each screen checks its own page's errors (expectInert), so pages are opened on `chromium` directly.
const { product, chromium } = useBrowserStack({ quickBooks: true, name: 'xss' });

/** Set by any payload that runs. */
const FLAG = '__xssRan';
const SKU = 'XSS-1';
const NAME = `Evil <img src=x onerror="window.${FLAG}=1"> Bar`;
const DESCRIPTION = `<script>window.${FLAG}=1</script><b>Bold?</b> <a href="javascript:window.${FLAG}=1">Click me</a>`;
const COMPANY = `<img src=x onerror="window.${FLAG}=1;alert(1)">Evil Co <a href="javascript:alert(1)">x</a>`;
const LOCATION = `<script>alert(1)</script> Hall`;
const CUSTOMER = {
  firstName: 'Xena',
  email: `xena-${RUN_ID}@decor.example`.toLowerCase(),
  password: 'xena-password-1',
  displayName: 'Xena Customer',
};

beforeAll(async () => {
  // Connected, so staff sign in without the QuickBooks detour.
  await orderSetup(product.api).connectQuickBooks('Markup Co');

  // The product as the catalogue's routes store it (one write with its ProductUpserted event).
  await saveProduct(
    product.catalogue.ctx,
    {
      sku: SKU,
      name: NAME,
      description: DESCRIPTION,
      priceCents: 12_300,
      quantity: 9,
      category: 'BARS',
      subcategory: 'Bar Front',
      images: [],
    },
    'xss-seed',
  );
  // A customer of a company with markup in its name, as the user service stores users (UserCreated).
  const doc = newUserWithEvent(
    product.user.ctx.users,
    {
      firstName: CUSTOMER.firstName,
      lastName: 'Customer',
      email: CUSTOMER.email,
      permissions: 'customer',
      ownCompany: COMPANY,
      passwordHash: await hashPassword(CUSTOMER.password),
    },
    'create-xena',
  );
  await doc.save();
  product.user.ctx.eventsWritten();
  await (await signedIn(product.api, CUSTOMER.email, CUSTOMER.password)).activeCart();
  // The storefront (through the gateway) knows the product.
  await until(
    async () => (await call(product.api, `/product/${SKU}`)).status,
    200,
    'the seeded product through the gateway',
  );
});

interface Watched {
  page: Page;
  context: BrowserContext;
  errors: string[];
  dialogs: string[];
}

/**
 * A page whose every document reports CSP violations to `window.__cspViolations` (registered before
 * any script of the page) and whose dialogs are recorded and dismissed.
 */
async function watchedPage(): Promise<Watched> {
  const { page, context, errors } = await chromium.newPage();
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  return { page, context, errors, dialogs };
}

/** Nothing of the payloads reached the DOM as markup, nothing ran, nothing was blocked. */
async function expectInert({ page, errors, dialogs }: Watched, where: string): Promise<void> {
  const seen = await page.evaluate((flag) => {
    const w = window as unknown as Record<string, unknown> & { __cspViolations?: string[] };
    return {
      ran: w[flag] ?? null,
      violations: w.__cspViolations ?? [],
      imgX: document.querySelectorAll('img[src="x"]').length,
      jsLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
      // Scripts that would run: the server-rendered page's JSON data element holds the names as data.
      scripts: [...document.scripts].filter(
        (s) => s.type !== 'application/json' && s.textContent?.includes(flag),
      ).length,
      bold: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'Bold?').length,
    };
  }, FLAG);
  expect({ where, ...seen }).toEqual({
    where,
    ran: null,
    violations: [],
    imgX: 0,
    jsLinks: 0,
    scripts: 0,
    bold: 0,
  });
  expect(dialogs).toEqual([]);
  expect(errors.filter((e) => e.startsWith('page error'))).toEqual([]);
}

let estimateId = '';

it("a customer sees the product's and the company's markup as text on the list, product page, cart and orders", async () => {
  const watched = await watchedPage();
  const { page } = watched;
  await page.goto('/inventory/BARS/Bar%20Front');
  await signInFully(page, CUSTOMER);

  // The list: the name is the card's heading, literally.
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 2, name: NAME, exact: true });
  await visible(heading);
  await expectInert(watched, 'product list');

  // The product page: name and description literally.
  await page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: NAME, exact: true }) })
    .getByRole('button', { name: 'More Info' })
    .click();
  await visible(main.getByRole('heading', { level: 1, name: NAME, exact: true }));
  await visible(main.getByText(DESCRIPTION, { exact: true }));
  await screenshot(page, 'x1-product-page-markup-as-text');
  await expectInert(watched, 'product page');

  // Into the cart (the product page's button is named by its visible text), then the cart page.
  await page.getByRole('button', { name: 'Add To Cart', exact: true }).click();
  await visible(main.getByText('Success!', { exact: true }));
  await page.getByRole('button', { name: /^Cart total / }).click();
  await until(async () => pathOf(page), '/checkout/cart', 'the cart page');
  await visible(main.getByRole('cell', { name: new RegExp(escapeRegex(NAME)) }).first());
  expect(await main.textContent()).toContain(NAME);
  await expectInert(watched, 'cart');

  // The order request (through the API, as the checkout sends it) with markup in its location too.
  const session = await signedIn(product.api, CUSTOMER.email, CUSTOMER.password);
  const cart = await session.activeCart();
  const estimate = await session.call('/estimate', {
    method: 'POST',
    json: {
      CartId: cart.id,
      status: 'Pending',
      groupName: 'Markup Gala',
      eventDate: '2031-05-05',
      location: LOCATION,
    },
  });
  expect(estimate.status).toBe(201);
  estimateId = estimate.body.result.id as string;

  // The customer's order page: the line's name and the location literally.
  await page.goto(`/orders/estimate/${estimateId}`);
  await visible(main.getByText('Markup Gala').first());
  await visible(main.getByText(NAME, { exact: true }).first());
  await visible(main.getByText(LOCATION, { exact: true }).first());
  await screenshot(page, 'x2-customer-order-markup-as-text');
  await expectInert(watched, "the customer's order page");
});

it("staff see the company's and the product's markup as text on the orders list and the order page", async () => {
  expect(estimateId).not.toBe('');
  const watched = await watchedPage();
  const { page } = watched;
  await page.goto('/');
  await signInFully(page, STAFF);
  await page.goto('/orders');
  const main = page.getByRole('main');
  const customerLink = main.getByRole('link', { name: `${CUSTOMER.displayName} / ${COMPANY}`, exact: true });
  await visible(customerLink);
  await expectInert(watched, "staff's orders list");

  await page.goto(`/orders/estimate/${estimateId}`);
  await visible(main.getByRole('link', { name: `${CUSTOMER.displayName} (${COMPANY})`, exact: true }));
  await visible(main.getByText(LOCATION, { exact: true }).first());
  expect(await main.textContent()).toContain(NAME);
  await screenshot(page, 'x3-staff-order-markup-as-text');
  await expectInert(watched, "staff's order page");
});
