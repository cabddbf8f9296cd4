/**
 * Issue 30 with Stripe itself: the accept screen frames the gateway's /payments/card, which loads
 * Stripe.js from js.stripe.com and mounts the Payment Element. Stripe's servers are out of reach
 * here, so Chromium is given a stand-in for js.stripe.com/v3 (the one thing not ours) that records
 * how our page drives it; the page, its Content-Security-Policy (enforced by Chromium: a script or
 * frame it did not allow would not run) and the messages to the accept screen are the real ones.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGateway, parseGatewayConfig } from '@decor/gateway';
import type { ServiceApp } from '@decor/kit';
import { serviceEnv } from '@decor/kit/testing';
import { launchHeadlessChromium } from '@decor/stack/tools';
import type { BrowserContext, Page } from 'playwright-core';

const PUBLISHABLE_KEY = 'pk_test_cardframe123';

/** Stands in for Stripe.js: records the calls, mounts a plain input, declines 4000 0000 0000 0002. */
const FAKE_STRIPE_JS = `
window.Stripe = function (key) {
  const seen = (window.__stripe = { key, calls: [] });
  return {
    elements(options) {
      seen.elements = options;
      return {
        create(type) {
          seen.type = type;
          return { mount(selector) { const i = document.createElement('input'); i.id = 'card-number'; i.setAttribute('aria-label', 'Card number'); document.querySelector(selector).appendChild(i); } };
        },
        submit: async () => { seen.calls.push('submit'); return {}; },
      };
    },
    async createPaymentMethod(params) {
      seen.calls.push('createPaymentMethod');
      const number = document.getElementById('card-number').value;
      if (number === '4000000000000002') return { error: { message: 'Your card was declined.' } };
      return { paymentMethod: { id: 'pm_from_element', card: { brand: 'visa', last4: number.slice(-4) } } };
    },
  };
};`;

let gateway: ServiceApp;
let base: string;
let context: BrowserContext;

beforeAll(async () => {
  const env = await serviceEnv('gateway');
  gateway = await buildGateway(parseGatewayConfig({ ...env, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY }), {
    logLevel: 'silent',
  });
  base = await gateway.listen({ port: Number(env.PORT), host: '127.0.0.1' });
  context = await launchHeadlessChromium(mkdtempSync(path.join(tmpdir(), 'decor-card-frame-')));
}, 120_000);

afterAll(async () => {
  await context?.close();
  await gateway?.close();
});

const frameUrl = (query: Record<string, string>) => `${base}/payments/card?${new URLSearchParams(query)}`;

describe('GET /payments/card', () => {
  it("answers 400 with a message for an origin that is not the product's, or a bad amount", async () => {
    const foreign = await fetch(
      frameUrl({ origin: 'https://evil.example', amount: '2500', currency: 'usd' }),
    );
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).message).toBe("origin must be the product's own address");
    const noAmount = await fetch(frameUrl({ origin: base, currency: 'usd' }));
    expect(noAmount.status).toBe(400);
    expect((await noAmount.json()).message).toMatch(/amount/);
    const tooSmall = await fetch(frameUrl({ origin: base, amount: '10', currency: 'usd' }));
    expect(tooSmall.status).toBe(400);
  });

  it("lets Stripe's sources in on its own page only, framed by the product alone", async () => {
    const page = await fetch(frameUrl({ origin: base, amount: '2500', currency: 'usd' }));
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'nonce-[^']+' https:\/\/js\.stripe\.com/);
    expect(policy).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(policy).toContain('connect-src https://api.stripe.com');
    expect(policy).toContain(`frame-ancestors ${base}`);
    expect(await page.text()).toContain(JSON.stringify(PUBLISHABLE_KEY));
    // The product's pages keep their policy: no Stripe source anywhere in it.
    const shell = await fetch(`${base}/`);
    expect(shell.headers.get('content-security-policy') ?? '').not.toContain('stripe.com');
  });

  it('is not served without a publishable key', async () => {
    const { STRIPE_PUBLISHABLE_KEY: _key, ...env } = await serviceEnv('gateway');
    const plain = await buildGateway(parseGatewayConfig(env), { logLevel: 'silent' });
    try {
      const res = await plain.inject({
        url: '/payments/card?origin=http://127.0.0.1&amount=2500&currency=usd',
      });
      // The pages' fallback may answer, never Stripe's card frame.
      expect(res.body).not.toContain('js.stripe.com');
      expect(String(res.headers['content-security-policy'])).not.toContain('stripe.com');
    } finally {
      await plain.close();
    }
  });
});

describe('the card frame in Chromium (Stripe.js stood in for)', () => {
  /** The accept screen's side: the frame as PaymentFrame embeds it, and the messages it gets. */
  async function embeddingPage(): Promise<{ page: Page; violations: string[] }> {
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.route('https://js.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: FAKE_STRIPE_JS }),
    );
    await page.route(`${base}/accept-test`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Accept</title><script>window.messages = [];
addEventListener('message', (e) => { if (e.origin === location.origin) window.messages.push(e.data); });</script>
<iframe title="Card details" style="width:480px;height:300px" src="${frameUrl({ origin: base, amount: '2500', currency: 'usd' })}"></iframe>`,
      }),
    );
    await page.goto(`${base}/accept-test`);
    return { page, violations };
  }

  const messages = (page: Page) =>
    page.evaluate(() => (window as unknown as { messages: unknown[] }).messages);

  it("mounts the Payment Element for the deposit, manual capture, and hands the accept screen the payment method's id", async () => {
    const { page, violations } = await embeddingPage();
    const frame = page.frameLocator('iframe[title="Card details"]');
    await frame.getByLabel('Card number').fill('4242424242424242');
    await frame.getByRole('button', { name: 'Use this card' }).click();
    await frame.getByText('Card ending 4242 is ready.').waitFor();
    expect(await messages(page)).toEqual([
      {
        type: 'decor-payment-method',
        paymentMethod: 'pm_from_element',
        card: { brand: 'visa', last4: '4242' },
      },
    ]);
    const stripe = await page
      .frames()
      .find((f) => f.url().includes('/payments/card'))
      ?.evaluate(() => (window as unknown as { __stripe: unknown }).__stripe);
    expect(stripe).toEqual({
      key: PUBLISHABLE_KEY,
      type: 'payment',
      elements: {
        mode: 'payment',
        amount: 2500,
        currency: 'usd',
        captureMethod: 'manual',
        paymentMethodCreation: 'manual',
      },
      calls: ['submit', 'createPaymentMethod'],
    });
    expect(violations).toEqual([]);
    await page.close();
  });

  it("shows Stripe's decline message and tells the accept screen, which gets no payment method", async () => {
    const { page, violations } = await embeddingPage();
    const frame = page.frameLocator('iframe[title="Card details"]');
    await frame.getByLabel('Card number').fill('4000000000000002');
    await frame.getByRole('button', { name: 'Use this card' }).click();
    await frame.getByText('Your card was declined.').waitFor();
    expect(await messages(page)).toEqual([
      { type: 'decor-payment-error', message: 'Your card was declined.' },
    ]);
    expect(violations).toEqual([]);
    await page.close();
  });
});
