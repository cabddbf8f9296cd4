/**
 * The QuickBooks connection in a real Chromium, against the whole product with accounting-sync and
 * the QuickBooks emulator: staff sign-in while QuickBooks is not connected sends the browser to the
 * emulator's consent page, Connect brings it back to /callback, the staff member ends on / signed in
 * and the company is connected. The tokens never reach the browser; a replayed callback is refused.
 */

import { CONNECTION_ID } from '@decor/accounting-sync';
import { call, eventually, RUN_ID } from '@decor/kit/testing';
import type { Page, Request, Response } from 'playwright-core';
import { screenshot } from './support/browser';
import { FIRST_LOAD_MS, useBrowserStack } from './support/browser-fixture';
import { emulator, newEmulatorCompany } from './support/quickbooks';
import { pathOf, signInFully, until, userMenuButton, visible } from './support/ui';

const stack = useBrowserStack({ quickBooks: true, name: 'qbo-connect' });
const { product } = stack;

const STAFF = {
  email: 'staff@decor.example',
  password: 'demo1234',
  displayName: 'Sam Reyes',
};
const CUSTOMER = {
  email: 'customer@decor.example',
  password: 'demo1234',
  displayName: 'Casey Morgan',
};
const REDIRECTING = 'Re-directing to Quickbooks...';
const CALLBACK_FAILED = 'Something went wrong while logging in.';

/** Everything the browser received, kept for the check that no QuickBooks token is among it. */
interface Received {
  url: string;
  status: number;
  headerNames: string[];
  contentType: string;
  body: string | null;
}
const received: Promise<Received>[] = [];

async function open(): Promise<Page> {
  const page = await stack.open();
  page.on('response', (res) => received.push(readResponse(res)));
  return page;
}

async function readResponse(res: Response): Promise<Received> {
  const headers = await res.allHeaders().catch(() => res.headers());
  const contentType = headers['content-type'] ?? '';
  // Scripts, styles and images are the built frontends; the rest is read in full.
  const readable = /json|html|text\/plain/.test(contentType);
  return {
    url: res.url(),
    status: res.status(),
    headerNames: Object.keys(headers).map((h) => h.toLowerCase()),
    contentType,
    body: readable ? await res.text().catch(() => null) : null,
  };
}

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      keysOf(v, into);
    }
  }
  return into;
}

/** An API call from inside the page with the session token it keeps in session storage. */
function fromPage(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async (p) => {
    const token = sessionStorage.getItem('token');
    const res = await fetch(p, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: await res.json().catch(() => null) };
  }, path);
}

/** What POST /auth/user answers `who` (status and result), as the login modal sees it. */
async function signInAnswer(who: { email: string; password: string }) {
  const answer = await call(product.api, '/auth/user', {
    method: 'POST',
    json: { email: who.email, password: who.password },
  });
  if (answer.status !== 200) throw new Error(`sign-in of ${who.email} answered ${answer.status}`);
  return answer.body.result as { token: string; permissions: string; redirecturl?: string };
}

const isConsentPage = (url: URL) =>
  url.origin === new URL(emulator().url).origin && url.pathname === '/connect/oauth2';

/**
 * Watches the page's way to the emulator's consent page and what the login modal says before it
 * goes. While a navigation is under way Playwright cannot query the old document, so the page itself
 * reports each status line of a dialog (MutationObserver → binding), and the consent page's request
 * is held until the modal's status has been seen (or 10 s have passed, so a missing message fails
 * the assertion, not the journey).
 */
async function watchConsentWay(page: Page) {
  const visits: string[] = [];
  const said: string[] = [];
  let heard: () => void = () => {};
  const statusHeard = new Promise<void>((resolve) => {
    heard = resolve;
  });
  await page.exposeBinding('decorE2eModalStatus', (_source, line: string) => {
    if (!said.includes(line)) said.push(line);
    heard();
  });
  await page.addInitScript(() => {
    const report = (window as unknown as { decorE2eModalStatus: (line: string) => void }).decorE2eModalStatus;
    const look = () => {
      for (const dialog of document.querySelectorAll('[role="dialog"]')) {
        const title = (dialog.getAttribute('aria-labelledby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim();
        for (const status of dialog.querySelectorAll('[role="status"]')) {
          const text = (status.textContent ?? '').replace(/\s+/g, ' ').trim();
          if (text) report(`${title}: ${text}`);
        }
      }
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.route(
    (url) => isConsentPage(url),
    async (route) => {
      visits.push(route.request().url());
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([statusHeard, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
      await route.continue();
    },
  );
  return { visits, said };
}

const company = { realmId: '', name: '' };
let callbackUrl = '';
let staffPage: Page;

beforeAll(async () => {
  Object.assign(company, await newEmulatorCompany(`Decor E2E ${RUN_ID}`));
});

it('a customer signs in without a detour while QuickBooks is not connected', async () => {
  // Not connected yet: staff would be sent to QuickBooks now.
  expect((await signInAnswer(STAFF)).redirecturl).toMatch(/\/connect\/oauth2\?/);
  expect((await signInAnswer(CUSTOMER)).redirecturl).toBeUndefined();

  const page = await open();
  const { visits } = await watchConsentWay(page);
  await page.goto('/', { timeout: FIRST_LOAD_MS });
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: FIRST_LOAD_MS });
  await signInFully(page, CUSTOMER);
  expect(new URL(page.url()).origin).toBe(product.url);
  expect(visits).toEqual([]);
  await screenshot(page, 'q0-customer-no-redirect');
});

it('staff signs in, connects QuickBooks on the consent page and comes back signed in on /', async () => {
  const page = await open();
  staffPage = page;
  const consent = await watchConsentWay(page);
  await page.goto('/', { timeout: FIRST_LOAD_MS });
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: FIRST_LOAD_MS });

  // The modal says where the browser is going, then goes.
  // (Not `signIn`'s wait for the text: Playwright may find the page already on its way.)
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Welcome' });
  await modal.getByLabel('Email').fill(STAFF.email);
  await modal.getByLabel('Password', { exact: true }).fill(STAFF.password);
  await modal.getByLabel('Password', { exact: true }).press('Enter');
  await until(async () => consent.visits.length, 1, 'the way to the consent page');
  await until(
    async () => consent.said.includes(`Welcome: ${REDIRECTING}`),
    true,
    `the modal's '${REDIRECTING}' before leaving`,
  );
  const authorize = new URL(consent.visits[0] as string);
  expect(authorize.searchParams.get('client_id')).toBe(emulator().clientId);
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${product.url}/callback`);
  expect(authorize.searchParams.get('response_type')).toBe('code');
  expect(authorize.searchParams.get('scope')).toBe('com.intuit.quickbooks.accounting');
  expect(authorize.searchParams.get('state')).toBeTruthy();

  // QuickBooks' consent page: the app asks for the company's data; the test company is chosen.
  await page.waitForURL((u) => u.origin === new URL(emulator().url).origin, { timeout: 30_000 });
  await visible(page.getByRole('heading', { level: 1, name: 'Connect Decor Rentals to QuickBooks' }));
  await visible(page.getByText(emulator().clientId, { exact: true }));
  const picker = page.getByLabel('Company');
  await picker.selectOption(company.realmId);
  expect(await picker.inputValue()).toBe(company.realmId);
  await screenshot(page, 'q2-consent');

  const backOnCallback = page.waitForRequest(
    (r: Request) => r.isNavigationRequest() && new URL(r.url()).pathname === '/callback',
    { timeout: 30_000 },
  );
  const exchanged = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/accessToken', {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  callbackUrl = (await backOnCallback).url();
  const back = new URL(callbackUrl);
  expect(back.origin).toBe(product.url);
  expect(back.searchParams.get('realmId')).toBe(company.realmId);
  expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
  expect(back.searchParams.get('code')).toBeTruthy();

  // The code is exchanged on the server; the browser learns only that the company is connected.
  const exchange = await exchanged;
  expect(exchange.status()).toBe(200);
  expect(await exchange.json()).toEqual({
    result: { connected: true, realmId: company.realmId, companyName: company.name },
  });

  // Home, signed in as that staff member.
  await until(async () => pathOf(page), '/', 'home after the callback', 30_000);
  await visible(userMenuButton(page, STAFF.displayName));
  expect(await page.getByText(CALLBACK_FAILED).count()).toBe(0);
  await screenshot(page, 'q3-connected-home');

  // accounting-sync says the company is connected, to that realm and company.
  const status = await fromPage(page, '/api/qbo/status');
  expect(status.status).toBe(200);
  expect((status.body as { result: unknown }).result).toMatchObject({
    connected: true,
    realmId: company.realmId,
    companyName: company.name,
    lostReason: null,
  });
}, 120_000);

it('once connected, staff sign in without a redirect (the user service learns it from the event); customers never get one', async () => {
  if (!callbackUrl) throw new Error('the connection journey did not get back to /callback');
  // QboConnectionChanged travels accounting-sync → Kafka → the user service.
  const connectedAt = Date.now();
  await eventually(
    async () => ((await signInAnswer(STAFF)).redirecturl === undefined ? true : undefined),
    30_000,
    'staff sign-in without redirecturl',
  );
  process.stderr.write(`the user service knew of the connection after ${Date.now() - connectedAt} ms\n`);
  expect((await signInAnswer(CUSTOMER)).redirecturl).toBeUndefined();

  const page = await open();
  const consent = await watchConsentWay(page);
  await page.goto('/', { timeout: FIRST_LOAD_MS });
  await signInFully(page, STAFF);
  expect(new URL(page.url()).origin).toBe(product.url);
  expect(consent.visits).toEqual([]);
  expect(await page.getByText(REDIRECTING).count()).toBe(0);
  await screenshot(page, 'q4-staff-signed-in-connected');
});

it('/admin/sync shows staff the connection and the queue; customers are sent home', async () => {
  if (!callbackUrl) throw new Error('the connection journey did not get back to /callback');
  const page = await open();
  await page.goto('/', { timeout: FIRST_LOAD_MS });
  await signInFully(page, STAFF);
  await page.goto('/admin/sync');
  await visible(page.getByRole('heading', { name: 'QuickBooks sync' }));
  await visible(page.getByText(`Connected to ${company.name}`, { exact: true }));
  await visible(page.getByText(`Realm ID ${company.realmId}`, { exact: true }));
  await visible(page.getByRole('button', { name: 'Renew' }));
  await visible(page.getByRole('cell', { name: 'qbo-sync', exact: true }));
  await visible(page.getByText('No failed jobs', { exact: true }));
  await visible(page.getByText('No dead-lettered events', { exact: true }));
  // The failed e-mails list with its empty state (issue 16: Replay once SMTP gave up).
  await visible(page.getByText('Failed e-mails', { exact: true }).first());
  await visible(page.getByText('No failed e-mails', { exact: true }));
  // Both failure tables name each entry's trace (issue 32), to search in the trace viewer.
  expect(await page.getByRole('columnheader', { name: 'Trace' }).count()).toBe(2);
  // Renew: QuickBooks refreshes the token and the page says so in the spec's words.
  await page.getByRole('button', { name: 'Renew' }).click();
  await visible(
    page
      .getByText('Your session with QuickBooks has been renewed! Please try your previous request again.')
      .first(),
  );
  await screenshot(page, 'q5-admin-sync');

  const customerPage = await open();
  await customerPage.goto('/', { timeout: FIRST_LOAD_MS });
  await signInFully(customerPage, CUSTOMER);
  await customerPage.goto('/admin/sync');
  await until(async () => new URL(customerPage.url()).pathname, '/', 'the customer sent home', 15_000);
  expect(await customerPage.getByRole('heading', { name: 'QuickBooks sync' }).count()).toBe(0);
});

it('a replayed callback (same code and state) is refused', async () => {
  if (!callbackUrl) throw new Error('the connection journey did not get back to /callback');
  const page = staffPage;
  const exchanged = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/accessToken');
  await page.goto(callbackUrl);
  expect((await exchanged).status()).toBe(400);
  await visible(page.getByText(CALLBACK_FAILED, { exact: true }));
  // Spec: the failure clears session storage.
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  await screenshot(page, 'q6-replay-refused');

  // The refusal changed nothing: still connected to the same company.
  const staff = await signInAnswer(STAFF);
  const status = await call(product.api, '/qbo/status', { token: staff.token });
  expect(status.body.result).toMatchObject({ connected: true, realmId: company.realmId });
});

it('no QuickBooks token reached the browser, in any header or body', async () => {
  if (!callbackUrl) throw new Error('the connection journey did not get back to /callback');
  const all = await Promise.all(received.splice(0));
  expect(all.some((r) => new URL(r.url).pathname === '/api/auth/accessToken')).toBe(true);
  expect(all.some((r) => new URL(r.url).pathname === '/api/qbo/status')).toBe(true);

  // The tokens accounting-sync keeps (encrypted at rest).
  const ctx = product.accountingSync.ctx;
  const doc = await ctx.connections.findById(CONNECTION_ID).lean();
  if (!doc?.accessToken || !doc.refreshToken) throw new Error('accounting-sync keeps no tokens');
  const tokens = [ctx.cipher.decrypt(doc.accessToken), ctx.cipher.decrypt(doc.refreshToken)];

  const leaks: string[] = [];
  for (const r of all) {
    for (const h of r.headerNames)
      if (/^(access_token|refresh_token|access-token|refresh-token)$/.test(h))
        leaks.push(`${r.url}: header ${h}`);
    if (r.body === null) continue;
    for (const t of tokens) if (r.body.includes(t)) leaks.push(`${r.url}: a QuickBooks token in the body`);
    // The emulator's token shapes, whichever generation.
    if (/eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0\.\.|RT1-[A-Za-z0-9]+-H0-\d/.test(r.body))
      leaks.push(`${r.url}: a token-shaped string in the body`);
    if (/json/.test(r.contentType)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.body);
      } catch {
        continue;
      }
      const keys = keysOf(parsed);
      for (const k of ['access_token', 'refresh_token', 'accessToken', 'refreshToken'])
        if (keys.includes(k)) leaks.push(`${r.url}: key ${k} in the JSON body`);
    }
  }
  expect(leaks).toEqual([]);
});
