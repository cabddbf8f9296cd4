/**
 * The card frame in a real browser (Debian's Chromium): embedded by a page of the allowed origin,
 * a wrong number shows Stripe's message in the frame and tells the parent; a test card's number
 * hands the parent a payment method id that then authorises (or declines) with the stripe client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type Stripe from 'stripe';
import { type Started, startEmulator, stripeAt } from './support';

let s: Started;
let parent: Server;
let parentOrigin: string;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  s = await startEmulator();
  // The shop's page: the frame, and what the frame posted shown as JSON.
  parent = createServer((_req, res) => {
    const src = `${s.emulator.url}/elements?origin=${encodeURIComponent(parentOrigin)}`;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>Accept</title><iframe title="Card details" src="${src}" width="520" height="320"></iframe>
<output id="posted"></output><script>addEventListener('message', (e) => {
  if (e.origin === ${JSON.stringify(new URL(s.emulator.url).origin)}) document.getElementById('posted').textContent = JSON.stringify(e.data);
});</script>`);
  });
  await new Promise<void>((resolve) => parent.listen(0, '127.0.0.1', resolve));
  parentOrigin = `http://127.0.0.1:${(parent.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'card-frame-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => parent.close(resolve));
  await s.stop();
  rmSync(profile, { recursive: true, force: true });
});

async function enterCard(page: Page, number: string): Promise<unknown> {
  const frame = page.frameLocator('iframe[title="Card details"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiry date (MM / YY)').fill(`12 / ${(new Date().getFullYear() + 2) % 100}`);
  await frame.getByLabel('Security code (CVC)').fill('123');
  await page.locator('#posted').evaluate((el) => {
    el.textContent = '';
  });
  await frame.getByRole('button', { name: 'Use this card' }).click();
  await page.waitForFunction("document.getElementById('posted').textContent !== ''");
  return JSON.parse((await page.locator('#posted').textContent()) ?? 'null');
}

it('shows a wrong number in the frame; a test card gives the parent a payment method that authorises', async () => {
  const page = await browser.newPage();
  await page.goto(parentOrigin);
  const frame = page.frameLocator('iframe[title="Card details"]');

  expect(await enterCard(page, '4242 4242 4242 4241')).toEqual({
    type: 'decor-payment-error',
    message: 'Your card number is incorrect.',
  });
  await expect(frame.locator('#message').textContent()).resolves.toBe('Your card number is incorrect.');
  expect(await frame.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');

  const visa = (await enterCard(page, '4242 4242 4242 4242')) as { type: string; paymentMethod: string };
  expect(visa).toMatchObject({ type: 'decor-payment-method', card: { brand: 'visa', last4: '4242' } });
  expect(visa.paymentMethod).toMatch(/^pm_/);
  const stripe = stripeAt(s.emulator.url);
  const pi = await stripe.paymentIntents.create({
    amount: 2500,
    currency: 'usd',
    capture_method: 'manual',
    payment_method: visa.paymentMethod,
    confirm: true,
  });
  expect(pi.status).toBe('requires_capture');

  const declined = (await enterCard(page, '4000 0000 0000 0002')) as { paymentMethod: string };
  const err = await stripe.paymentIntents
    .create({ amount: 2500, currency: 'usd', payment_method: declined.paymentMethod, confirm: true })
    .catch((e: Stripe.errors.StripeError) => e);
  expect((err as Stripe.errors.StripeError).message).toBe('Your card was declined.');
  await page.close();
});

it('refuses to be framed by another origin (CSP frame-ancestors)', async () => {
  const page = await browser.newPage();
  const refused: string[] = [];
  page.on('console', (m) => refused.push(m.text()));
  // The emulator's own origin is not the allowed one.
  await page.goto(`${s.emulator.url}/`);
  const src = `${s.emulator.url}/elements?origin=${encodeURIComponent(parentOrigin)}`;
  await page.evaluate(
    `document.body.append(Object.assign(document.createElement('iframe'), { src: ${JSON.stringify(src)} }))`,
  );
  await page.waitForTimeout(500);
  expect(page.frames()).toHaveLength(2);
  const framed = page.frames()[1];
  expect(
    await framed
      ?.locator('#number')
      .count()
      .catch(() => 0),
  ).toBe(0);
  expect(refused.join('\n')).toContain('frame-ancestors');
  await page.close();
});
