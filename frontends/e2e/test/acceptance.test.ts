/**
 * Accepting an estimate online (issue 30) in a real Chromium against the whole product, the
 * QuickBooks emulator (the estimate must be Open: sent to QuickBooks) and the payments emulator (the
 * card frame and the deposit's authorisation): the customer reviews the estimate, signs with the
 * pointer on the pad, enters the test card in the provider's frame and accepts; 'Accepted' shows on
 * the customer's page and on staff's open order page without a reload. A declined card shows the
 * provider's message and accepts nothing.
 */
import { call } from '@decor/kit/testing';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import { CUSTOMER, orderSetup, STAFF } from './support/orders';
import { until, visible } from './support/ui';

const { product, signedInPage, fail } = useBrowserStack({ quickBooks: true, name: 'acceptance' });
let setup: ReturnType<typeof orderSetup>;
let staffToken: string;
let customerToken: string;

beforeAll(async () => {
  setup = orderSetup(product.api);
  staffToken = await setup.connectQuickBooks('Acceptance Co');
  customerToken = (await setup.signInApi(CUSTOMER)).token;
}, 120_000);

/** Where the estimate's acceptance stands, as the customer's GET says (bare or in `result`). */
async function acceptanceState(id: string): Promise<string | undefined> {
  const read = await call(product.api, `/estimate/${id}/acceptance`, { token: customerToken });
  return read.body?.result?.state ?? read.body?.state;
}

/** An estimate of the customer's, sent to QuickBooks by staff: Open, offered for acceptance. */
async function openEstimate(groupName: string): Promise<{ id: string; DocNumber: string }> {
  const estimate = await setup.submitEstimate(customerToken, { groupName });
  await setup.openInQuickBooks(staffToken, estimate.id);
  await until(() => acceptanceState(estimate.id), 'awaiting', 'the estimate offered for acceptance', 30_000);
  return estimate;
}

/** From the order page to the accept screen. */
async function openAcceptScreen(page: Page, estimate: { id: string; DocNumber: string }): Promise<void> {
  await page.goto(`/orders/estimate/${estimate.id}`);
  const acceptance = page.getByRole('region', { name: 'Acceptance' });
  await visible(acceptance.getByText('Waiting for your acceptance', { exact: true }));
  await acceptance.getByRole('button', { name: 'Review and accept' }).click();
  await visible(
    page.getByRole('heading', { level: 1, name: `Review and accept Estimate #${estimate.DocNumber}` }),
  );
}

/** A signature drawn with the pointer: a few strokes across the pad. */
async function drawSignature(page: Page): Promise<void> {
  const pad = page.getByRole('img', { name: /^Signature pad/ });
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad has no box');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 30, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(box.x + 30 + i * 20, y + (i % 2 ? -25 : 25), { steps: 3 });
  await page.mouse.up();
}

/** The test card typed into the payments emulator's frame (the provider's page, not ours). */
async function enterCard(page: Page, number: string): Promise<void> {
  const frame = page.frameLocator('iframe[title="Card entry by the payment provider"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiry date (MM / YY)').fill('12 / 34');
  await frame.getByLabel('Security code (CVC)').fill('123');
  await frame.getByRole('button', { name: 'Use this card' }).click();
  await visible(page.getByText('Card details entered.', { exact: true }));
}

async function signAndAgree(page: Page): Promise<void> {
  await page.getByLabel('Full name').fill(CUSTOMER.displayName);
  await drawSignature(page);
  await page.getByRole('checkbox', { name: 'I have read and agree to the rental agreement' }).check();
}

it("the customer signs on the pad, enters the test card and accepts; 'Accepted' on their page and on staff's open page without a reload", async () => {
  const estimate = await openEstimate('Signed Gala');
  const orderPath = `/orders/estimate/${estimate.id}`;

  // Staff (an admin) read the shop's acceptance settings — saving is the superadmin's — then keep
  // the order page open.
  const staff = await signedInPage(STAFF);
  await (async () => {
    await staff.goto('/admin/settings/acceptance');
    await visible(staff.getByRole('heading', { level: 1, name: 'Acceptance settings' }));
    await visible(staff.getByText(/^Current agreement: version \d+\./));
    await visible(staff.getByText('Only the superadmin can change these settings.', { exact: true }));
    expect(await staff.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await staff.goto(orderPath);
    await visible(staff.getByRole('heading', { name: `Estimate #${estimate.DocNumber}` }));
    await visible(staff.getByText("Awaiting the customer's acceptance", { exact: true }));
    await staff.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
  })().catch(fail(staff, 'acceptance-staff-open'));

  const page = await signedInPage(CUSTOMER);
  await (async () => {
    await openAcceptScreen(page, estimate);
    // The estimate as it will be booked, the agreement with its version, the deposit.
    await visible(page.getByRole('region', { name: 'Cart' }));
    await visible(page.getByRole('region', { name: /^Rental agreement \(version \d+\)$/ }));
    await visible(page.getByTestId('deposit-amount'));
    await signAndAgree(page);
    await enterCard(page, '4242 4242 4242 4242');
    await screenshot(page, 'acceptance-signed');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await visible(page.getByText('Accepted', { exact: true }));
    await visible(page.getByText(new RegExp(`^Signed by ${CUSTOMER.displayName} on `)));
    await screenshot(page, 'acceptance-accepted');
    // The order page then shows the acceptance.
    await page.getByRole('link', { name: 'Back to the order' }).first().click();
    const acceptance = page.getByRole('region', { name: 'Acceptance' });
    await visible(acceptance.getByTestId('acceptance-state').getByText('Accepted', { exact: true }));
    await visible(acceptance.getByText(/authorised \(held on the card\)/));
  })().catch(fail(page, 'acceptance-customer'));

  // Staff's page, left open, follows.
  await (async () => {
    const acceptance = staff.getByRole('region', { name: 'Acceptance' });
    await acceptance
      .getByText(new RegExp(`^Signed by ${CUSTOMER.displayName} on `))
      .waitFor({ state: 'visible', timeout: 30_000 });
    await visible(acceptance.getByTestId('acceptance-state').getByText('Accepted', { exact: true }));
    expect(await staff.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    await screenshot(staff, 'acceptance-staff-accepted');
  })().catch(fail(staff, 'acceptance-staff-followed'));
}, 300_000);

it("a declined card shows the provider's message and accepts nothing", async () => {
  const estimate = await openEstimate('Declined Gala');
  const page = await signedInPage(CUSTOMER);
  await (async () => {
    await openAcceptScreen(page, estimate);
    await signAndAgree(page);
    await enterCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await visible(page.getByText('Your card was declined.', { exact: true }));
    await screenshot(page, 'acceptance-declined');
  })().catch(fail(page, 'acceptance-declined'));
  // Nothing recorded: the estimate still waits for an acceptance.
  expect(await acceptanceState(estimate.id)).toBe('awaiting');
}, 300_000);
