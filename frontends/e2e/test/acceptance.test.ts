/**
 * Accepting an estimate online (issue 30) in a real Chromium against the whole product, the
 * QuickBooks emulator (the estimate must be Open: sent to QuickBooks) and the payments emulator (the
 * card frame and the deposit's authorisation): the customer reviews the estimate, signs with the
 * pointer on the pad, enters the test card in the provider's frame and accepts; 'Accepted' shows on
 * the customer's page and on staff's open order page without a reload; the signed agreement (PDF)
 * opens and verifies. Then, on that estimate: staff's edit voids the signature, the customer's
 * screen says what changed and they sign again; its invoice takes the deposit, and staff cancel the
 * invoice choosing to refund it (one confirmation): refunded shows. A declined card shows the
 * provider's message and accepts nothing; that estimate's offer then ends unaccepted (its end written
 * in the past, the order service's sweep — every second here — marks it): both open pages say so live,
 * staff find it under the list's Expired filter and extend it, and the customer may accept it again.
 */
import { ACCEPTANCE_MESSAGES, DEPOSIT_ON_VOID_TEXTS, EXTEND_OFFER_TEXTS } from '@decor/contracts/rules';
import { call } from '@decor/kit/testing';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import { CUSTOMER, chooseOption, orderSetup, STAFF, statusTag } from './support/orders';
import { openedDialog, until, visible } from './support/ui';

// Full Chromium: the signed agreement opens in its PDF viewer, which the headless shell lacks.
const { product, signedInPage, fail } = useBrowserStack({
  quickBooks: true,
  name: 'acceptance',
  browser: 'full',
});
let setup: ReturnType<typeof orderSetup>;
let staffToken: string;
let customerToken: string;
/** The first journey's accepted estimate and its two pages, left open for the journeys that follow it. */
let signed: { estimate: { id: string; DocNumber: string }; page: Page; staff: Page } | undefined;
/** The declined journey's estimate (still awaiting) and the customer's page, for the offer's end. */
let declined: { estimate: { id: string; DocNumber: string }; page: Page } | undefined;

beforeAll(async () => {
  setup = orderSetup(product.api);
  staffToken = await setup.connectQuickBooks('Acceptance Co');
  customerToken = (await setup.signInApi(CUSTOMER)).token;
}, 120_000);

/** The estimate's acceptance as the customer's GET says (bare or in `result`). */
async function acceptanceView(id: string) {
  const read = await call(product.api, `/estimate/${id}/acceptance`, { token: customerToken });
  return (read.body?.result ?? read.body) as {
    state?: string;
    expiresAt?: string | null;
    accepted?: { depositState?: string; signerName?: string };
  };
}
const acceptanceState = async (id: string) => (await acceptanceView(id)).state;
const depositState = async (id: string) => (await acceptanceView(id)).accepted?.depositState;

function signedJourney(): NonNullable<typeof signed> {
  if (!signed) throw new Error("this journey goes on from the first one's accepted estimate, which failed");
  return signed;
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

  // The signed agreement, made by a job after the acceptance, appears on the owner's page and opens:
  // the page fetches it with the session and shows it; it verifies against the stored record.
  await (async () => {
    const pdfLink = page
      .getByRole('region', { name: 'Acceptance' })
      .getByRole('button', { name: 'Signed agreement (PDF)' });
    await pdfLink.waitFor({ state: 'visible', timeout: 30_000 });
    const opened = page.context().waitForEvent('page', { timeout: 15_000 });
    const [pdf] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === `/api/estimate/${estimate.id}/agreement.pdf`),
      pdfLink.click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toMatch(/^application\/pdf/);
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const viewer = await opened;
    expect(viewer.url()).toMatch(/^blob:/);
    await viewer.close();
    const verify = await call(product.api, `/estimate/${estimate.id}/agreement/verify`, {
      token: customerToken,
    });
    expect(verify.status).toBe(200);
    expect(verify.body.result).toMatchObject({ matches: true });
    expect(verify.body.result.pdfSha256).toBe(verify.body.result.recordSha256);
  })().catch(fail(page, 'acceptance-agreement-pdf'));
  signed = { estimate, page, staff };
}, 300_000);

it('an edit of the accepted estimate asks for a new signature: the customer sees what changed and signs again', async () => {
  const { estimate, page, staff } = signedJourney();
  // Staff change the location (through the API: the edit screen is the orders journey's).
  const edit = await call(product.api, `/estimate/${estimate.id}`, {
    method: 'PUT',
    token: staffToken,
    json: { location: 'The Orangery' },
  });
  expect(edit.status).toBe(200);
  await (async () => {
    // Staff's open page follows; once the change is in QuickBooks the estimate is offered again,
    // the signature voided.
    await statusTag(staff, 'Pending Update').waitFor({ state: 'visible', timeout: 30_000 });
    await chooseOption(staff, 'Update it in Quickbooks');
    await statusTag(staff, 'Open').waitFor({ state: 'visible', timeout: 45_000 });
    await staff
      .getByRole('region', { name: 'Acceptance' })
      .getByTestId('acceptance-state')
      .getByText('Signature voided by a change', { exact: true })
      .waitFor({ state: 'visible', timeout: 30_000 });
  })().catch(fail(staff, 'acceptance-edit-staff'));
  await until(() => acceptanceState(estimate.id), 'voided', 'the estimate offered to sign again', 30_000);

  await (async () => {
    // The customer's open order page says so without a reload, with what changed.
    const acceptance = page.getByRole('region', { name: 'Acceptance' });
    await acceptance
      .getByTestId('acceptance-state')
      .getByText('Changed since you signed: please sign again', { exact: true })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await acceptance.getByRole('button', { name: 'Review and accept' }).click();
    const voided = page.locator('.ant-alert').filter({ hasText: ACCEPTANCE_MESSAGES.voided });
    await visible(voided);
    await visible(voided.getByText('What changed since it was signed:'));
    await visible(voided.getByRole('listitem').filter({ hasText: /^Location$/ }));
    await visible(page.getByRole('region', { name: 'Event Details' }).getByText('The Orangery'));
    // The deposit authorised at the first signature still holds: no card is asked for.
    expect(await page.locator('iframe[title="Card entry by the payment provider"]').count()).toBe(0);
    await signAndAgree(page);
    await screenshot(page, 'acceptance-sign-again');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await visible(page.getByText('Accepted', { exact: true }));
    await page.getByRole('link', { name: 'Back to the order' }).first().click();
    await visible(acceptance.getByTestId('acceptance-state').getByText('Accepted', { exact: true }));
  })().catch(fail(page, 'acceptance-sign-again'));
  expect(await acceptanceState(estimate.id)).toBe('accepted');
  await staff
    .getByRole('region', { name: 'Acceptance' })
    .getByTestId('acceptance-state')
    .getByText('Accepted', { exact: true })
    .waitFor({ state: 'visible', timeout: 30_000 })
    .catch(fail(staff, 'acceptance-sign-again-staff'));
}, 300_000);

it("its invoice takes the deposit; staff cancel the invoice choosing to refund it, and 'refunded' shows", async () => {
  const { estimate, staff } = signedJourney();
  const invoice = await call(product.api, '/invoice', {
    method: 'POST',
    token: staffToken,
    json: { EstimateId: estimate.id },
  });
  expect(invoice.status).toBe(201);
  const invoiceId = invoice.body.result.id as string;
  await until(() => depositState(estimate.id), 'captured', 'the deposit captured', 30_000);

  await (async () => {
    await staff.goto(`/orders/invoice/${encodeURIComponent(invoiceId)}`);
    const acceptance = staff.getByRole('region', { name: 'Acceptance' });
    await visible(acceptance.getByTestId('acceptance-deposit').getByText(/, captured$/));
    await chooseOption(staff, 'Cancel Order');
    const dialog = await openedDialog(staff, 'Cancel this order?');
    const choice = dialog.getByRole('radiogroup', { name: DEPOSIT_ON_VOID_TEXTS.question });
    const confirm = dialog.getByRole('button', { name: 'Yes, cancel the order' });
    expect(await confirm.isDisabled()).toBe(true);
    await choice.getByRole('radio', { name: DEPOSIT_ON_VOID_TEXTS.refund }).check();
    await screenshot(staff, 'acceptance-void-refund');
    await confirm.click();
    await visible(staff.getByText('The order has been cancelled.', { exact: true }));
    await visible(statusTag(staff, 'Voided'));
    // The refund follows the void at the provider; the card follows it live.
    await acceptance
      .getByTestId('acceptance-deposit')
      .getByText(/, refunded$/)
      .waitFor({ state: 'visible', timeout: 30_000 });
  })().catch(fail(staff, 'acceptance-void-refund'));
  expect(await depositState(estimate.id)).toBe('refunded');
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
  declined = { estimate, page };
}, 300_000);

it("an offer that ends unaccepted shows 'Expired' live and in the list's filter; staff extend it and the customer may accept again", async () => {
  if (!declined) throw new Error("this journey goes on from the declined card's estimate, which failed");
  const { estimate, page } = declined;
  const orderPath = `/orders/estimate/${estimate.id}`;
  const staff = signed?.staff ?? (await signedInPage(STAFF));
  await (async () => {
    await page.goto(orderPath);
    await visible(page.getByRole('region', { name: 'Acceptance' }).getByText('Waiting for your acceptance'));
    await staff.goto(orderPath);
    await visible(staff.getByText("Awaiting the customer's acceptance", { exact: true }));
  })().catch(fail(staff, 'acceptance-expiry-open'));

  // The offer's end, in the past: the sweep lets it lapse (its holds released, EstimateOfferExpired).
  await product.order.ctx.estimates.updateOne(
    { _id: estimate.id },
    { $set: { 'offer.expiresAt': new Date(Date.now() - 1000) } },
  );
  await (async () => {
    const acceptance = page.getByRole('region', { name: 'Acceptance' });
    await acceptance
      .getByTestId('acceptance-state')
      .getByText(ACCEPTANCE_MESSAGES.expired, { exact: true })
      .waitFor({ state: 'visible', timeout: 30_000 });
    expect(await acceptance.getByRole('button', { name: 'Review and accept' }).count()).toBe(0);
  })().catch(fail(page, 'acceptance-expired-customer'));

  await (async () => {
    await staff
      .getByText('Expired without acceptance', { exact: true })
      .waitFor({ state: 'visible', timeout: 30_000 });
    // The list's Acceptance filter finds it, marked Expired.
    await staff.goto('/orders');
    const filter = staff.getByRole('combobox', { name: 'Filter by acceptance' });
    const chosen = staff.locator('.ant-select').filter({ has: filter });
    await until(
      async () => {
        if ((await chosen.textContent())?.includes('Expired')) return true;
        const option = staff.locator('.ant-select-item-option').filter({ hasText: /^Expired$/ });
        if (!(await option.isVisible())) await filter.click();
        await option.click({ timeout: 2_000 }).catch(() => undefined);
        return false;
      },
      true,
      'Expired chosen in the acceptance filter',
    );
    const row = staff
      .getByRole('row')
      .filter({ has: staff.getByRole('link', { name: estimate.DocNumber, exact: true }) });
    await visible(row.getByTestId('acceptance-tag').getByText('Expired', { exact: true }));
    await row.getByRole('link', { name: estimate.DocNumber, exact: true }).click();

    const acceptance = staff.getByRole('region', { name: 'Acceptance' });
    await visible(acceptance.getByText('Expired without acceptance', { exact: true }));
    await acceptance.getByRole('button', { name: EXTEND_OFFER_TEXTS.action, exact: true }).click();
    const dialog = await openedDialog(staff, EXTEND_OFFER_TEXTS.title);
    await dialog.getByRole('spinbutton', { name: EXTEND_OFFER_TEXTS.days }).fill('10');
    await screenshot(staff, 'acceptance-extend');
    await dialog.getByRole('button', { name: EXTEND_OFFER_TEXTS.confirm }).click();
    await visible(acceptance.getByText(/^Extended: the estimate can be accepted until /));
    await visible(acceptance.getByText("Awaiting the customer's acceptance", { exact: true }));
  })().catch(fail(staff, 'acceptance-extend'));

  const view = await acceptanceView(estimate.id);
  expect(view.state).toBe('awaiting');
  const days = (new Date(view.expiresAt ?? 0).getTime() - Date.now()) / (24 * 60 * 60 * 1000);
  expect(days).toBeGreaterThan(9.9);
  expect(days).toBeLessThanOrEqual(10);
  // The customer's open page follows (EstimateOfferExtended): Review and accept is back.
  await page
    .getByRole('region', { name: 'Acceptance' })
    .getByRole('button', { name: 'Review and accept' })
    .waitFor({ state: 'visible', timeout: 30_000 })
    .catch(fail(page, 'acceptance-extended-customer'));
}, 300_000);
