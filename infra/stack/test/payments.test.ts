/**
 * The payments emulator in the stack: jest's global setup starts one (testEndpoints().payments),
 * npm start runs it as its own process with its data under the data dir and its webhooks sent to
 * the gateway (serve.ts), and paymentsEnv hands the services its settings — or Stripe's.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAYMENTS_DEV_KEYS } from '@decor/payments-emulator';
import { testEndpoints } from '../src/endpoints';
import { STACK_DIR } from '../src/jars';
import { paymentsEnv } from '../src/payments-env';
import { freePort } from '../src/ports';
import { startProcess } from '../src/process';

const { payments } = testEndpoints();
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const authorise = (url: string, key = payments.secretKey) =>
  fetch(`${url}/v1/payment_intents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({
      amount: '2500',
      currency: 'usd',
      capture_method: 'manual',
      payment_method: 'pm_card_visa',
      confirm: 'true',
      'metadata[estimateId]': 'est-stack',
    }),
  });

test("the test infrastructure's payments emulator answers Stripe's API with the local keys", async () => {
  expect(payments).toMatchObject(PAYMENTS_DEV_KEYS);
  const res = await authorise(payments.url);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    status: 'requires_capture',
    metadata: { estimateId: 'est-stack' },
  });
});

test('paymentsEnv: the emulator by default; Stripe itself once STRIPE_SECRET_KEY is set', () => {
  const e = testEndpoints();
  expect(paymentsEnv(e, {})).toEqual({
    STRIPE_SECRET_KEY: PAYMENTS_DEV_KEYS.secretKey,
    STRIPE_PUBLISHABLE_KEY: PAYMENTS_DEV_KEYS.publishableKey,
    STRIPE_API_URL: payments.url,
    STRIPE_WEBHOOK_SECRET: PAYMENTS_DEV_KEYS.webhookSecret,
    PAYMENTS_FRAME_URL: `${payments.url}/elements`,
  });
  expect(paymentsEnv(e, { STRIPE_SECRET_KEY: 'sk_test_real', STRIPE_WEBHOOK_SECRET: 'whsec_real' })).toEqual({
    STRIPE_SECRET_KEY: 'sk_test_real',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_API_URL: '',
    STRIPE_WEBHOOK_SECRET: 'whsec_real',
    // The gateway's page with Stripe's Payment Element (gateway/src/card-frame.ts).
    PAYMENTS_FRAME_URL: '/payments/card',
  });
});

test("npm start's payments process: data in the data dir, signed webhooks to the configured URL", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'payments-serve-'));
  const hooks: { body: string; signature: string }[] = [];
  const gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      hooks.push({ body, signature: String(req.headers['stripe-signature']) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/api/payments/webhook`;
  const port = await freePort();
  const dataFile = join(dir, 'payments', 'payments.json');
  const options = {
    port,
    dataFile,
    webhookEndpoints: [{ url: webhookUrl, secret: PAYMENTS_DEV_KEYS.webhookSecret }],
  };
  const proc = await startProcess({
    name: 'payments',
    command: process.execPath,
    args: ['--import', 'tsx', join(STACK_DIR, 'src', 'serve.ts'), 'payments', JSON.stringify(options)],
    cwd: join(STACK_DIR, '..', '..'),
    log: () => undefined,
    ready: /^ready /,
    readyTimeoutMs: 30_000,
    stopGraceMs: 5_000,
  });
  try {
    const res = await authorise(`http://127.0.0.1:${port}`);
    const pi = (await res.json()) as { id: string };
    const authorised = () =>
      hooks.find(
        (h) => h.body.includes(pi.id) && h.body.includes('payment_intent.amount_capturable_updated'),
      );
    for (let i = 0; i < 200 && !authorised(); i++) await new Promise((r) => setTimeout(r, 50));
    const hook = authorised();
    if (!hook) throw new Error('no webhook arrived');
    const [t, v1] = hook.signature.split(',').map((part) => part.split('=')[1]);
    const expected = createHmac('sha256', PAYMENTS_DEV_KEYS.webhookSecret)
      .update(`${t}.${hook.body}`)
      .digest('hex');
    expect(v1).toBe(expected);
    await proc.stop();
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { intents: Record<string, unknown> };
    expect(Object.keys(saved.intents)).toContain(pi.id);
  } finally {
    await proc.stop();
    await new Promise((resolve) => gateway.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
