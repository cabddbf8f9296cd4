/**
 * The payments emulator over time and trouble: authorisations lapse after 7 days on the control
 * clock, state survives a restart, the down and slow faults, the payments page and the card frame.
 */
import Stripe from 'stripe';
import { paymentsControl, startPaymentsEmulator } from '../src';
import { eventually, newSecretKey, type Started, startEmulator, stripeAt, webhookReceiver } from './support';

const DAY = 86_400;

const authorise = (stripe: Stripe, metadata: Record<string, string> = {}) =>
  stripe.paymentIntents.create({
    amount: 4200,
    currency: 'usd',
    capture_method: 'manual',
    payment_method: 'pm_card_visa',
    confirm: true,
    metadata,
  });

describe('the clock', () => {
  let s: Started;
  beforeAll(async () => {
    s = await startEmulator();
  });
  afterAll(() => s.stop());

  it('lapses an uncaptured authorisation after 7 days: canceled, reason automatic, a signed event', async () => {
    const receiver = await webhookReceiver();
    try {
      const key = newSecretKey();
      const control = paymentsControl(s.emulator.url);
      const endpoint = await control.addWebhookEndpoint({ url: receiver.url, apiKey: key });
      const stripe = stripeAt(s.emulator.url, key);
      const pi = await authorise(stripe);
      const captured = await authorise(stripe);
      await stripe.paymentIntents.capture(captured.id);

      expect((await control.advanceClock(6 * DAY)).lapsed).toBe(0);
      expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_capture');
      await control.advanceClock(DAY + 1);
      const lapsed = await stripe.paymentIntents.retrieve(pi.id);
      expect(lapsed).toMatchObject({
        status: 'canceled',
        cancellation_reason: 'automatic',
        amount_capturable: 0,
      });
      expect((await stripe.paymentIntents.retrieve(captured.id)).status).toBe('succeeded');
      expect((await failure(stripe.paymentIntents.capture(pi.id))).code).toBe(
        'payment_intent_unexpected_state',
      );

      // Signed with the real time, so a receiver's tolerance check still passes after the jump.
      const verifier = new Stripe('sk_test_verifier');
      const event = await eventually(() =>
        receiver.received
          .map((r) =>
            verifier.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), endpoint.secret),
          )
          .find((e) => e.type === 'payment_intent.canceled'),
      );
      expect(event.data.object).toMatchObject({ id: pi.id, cancellation_reason: 'automatic' });
      // `created` follows the emulator's clock (7 days ahead).
      expect(event.created - Date.now() / 1000).toBeGreaterThan(7 * DAY - 60);
    } finally {
      await receiver.close();
    }
  });
});

async function failure(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

it('a restart keeps endpoints added through the control API and replaces those of the start options', async () => {
  const first = await startEmulator({
    webhookEndpoints: [{ url: 'http://127.0.0.1:9/old', secret: 'whsec_a' }],
  });
  await paymentsControl(first.emulator.url).addWebhookEndpoint({ url: 'http://127.0.0.1:9/added' });
  await first.emulator.close();
  const again = await startPaymentsEmulator({
    port: 0,
    dataFile: first.dataFile,
    webhookEndpoints: [{ url: 'http://127.0.0.1:9/new', secret: 'whsec_b' }],
  });
  try {
    const endpoints = await paymentsControl(again.url).call<{ url: string }[]>(
      '/__emulator/webhook-endpoints',
    );
    expect(endpoints.map((e) => e.url).sort()).toEqual([
      'http://127.0.0.1:9/added',
      'http://127.0.0.1:9/new',
    ]);
  } finally {
    await again.close();
    await first.stop();
  }
});

it('keeps its state across a restart (the data file), idempotent replays too', async () => {
  const first = await startEmulator();
  const key = newSecretKey();
  const params = {
    amount: 3100,
    currency: 'usd',
    capture_method: 'manual' as const,
    payment_method: 'pm_card_visa',
    confirm: true,
    metadata: { estimateId: 'restart' },
  };
  const pi = await stripeAt(first.emulator.url, key).paymentIntents.create(params, {
    idempotencyKey: 'k-restart',
  });
  await first.emulator.close();

  const again = await startPaymentsEmulator({ port: 0, dataFile: first.dataFile });
  try {
    const stripe = stripeAt(again.url, key);
    const read = await stripe.paymentIntents.retrieve(pi.id);
    expect(read).toEqual(pi);
    const replay = await stripe.paymentIntents.create(params, { idempotencyKey: 'k-restart' });
    expect(replay.id).toBe(pi.id);
    expect((await stripe.paymentIntents.capture(pi.id)).status).toBe('succeeded');
  } finally {
    await again.close();
    await first.stop();
  }
});

describe('faults', () => {
  let s: Started;
  beforeAll(async () => {
    s = await startEmulator();
  });
  afterAll(() => s.stop());
  afterEach(() => paymentsControl(s.emulator.url).clearFaults());

  it('down: API calls answer 503 api_error until cleared', async () => {
    const control = paymentsControl(s.emulator.url);
    const stripe = stripeAt(s.emulator.url);
    await control.setFault({ down: true });
    const err = await failure(authorise(stripe));
    expect(err).toMatchObject({ statusCode: 503, type: 'StripeAPIError' });
    await control.clearFaults();
    expect((await authorise(stripe)).status).toBe('requires_capture');
  });

  it("down 'refuse': connections are refused for a while, then it answers again", async () => {
    const control = paymentsControl(s.emulator.url);
    const stripe = stripeAt(s.emulator.url);
    await control.setFault({ down: 'refuse', forSeconds: 1 });
    await new Promise((r) => setTimeout(r, 50));
    const err = await failure(authorise(stripe));
    expect(err).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await authorise(stripe)).status).toBe('requires_capture');
  });

  it("slow: a caller's time box ends the call; with conflicts, twenty racing posts with one key make one intent, the others 409 as at Stripe", async () => {
    const control = paymentsControl(s.emulator.url);
    await control.setFault({ slowMs: 1500 });
    const { hostname, port } = new URL(s.emulator.url);
    const boxed = new Stripe(newSecretKey(), {
      host: hostname,
      port: Number(port),
      protocol: 'http',
      maxNetworkRetries: 0,
      timeout: 500,
    });
    const started = Date.now();
    const err = await failure(authorise(boxed));
    expect(err).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(Date.now() - started).toBeLessThan(1400);

    // Without conflicts the racing posts each wait, then the first makes the intent and the rest replay it.
    const waiting = stripeAt(s.emulator.url);
    const waited = await Promise.all(
      Array.from({ length: 20 }, () =>
        waiting.paymentIntents.create(
          { amount: 5000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
          { idempotencyKey: 'slow-wait' },
        ),
      ),
    );
    expect(new Set(waited.map((pi) => pi.id)).size).toBe(1);

    await control.setFault({ slowMs: 1500, conflicts: true });
    const key = newSecretKey();
    const stripe = stripeAt(s.emulator.url, key);
    const params: Stripe.PaymentIntentCreateParams = {
      amount: 5000,
      currency: 'usd',
      capture_method: 'manual',
      payment_method: 'pm_card_visa',
      confirm: true,
    };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => stripe.paymentIntents.create(params, { idempotencyKey: 'slow-race' })),
    );
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(created).toHaveLength(1);
    const conflicts = results.flatMap((r) =>
      r.status === 'rejected' ? [r.reason as Stripe.errors.StripeError] : [],
    );
    expect(conflicts).toHaveLength(19);
    // The stripe client makes a 409 a StripeAPIError; the body's type says idempotency_error.
    for (const c of conflicts) expect(c).toMatchObject({ statusCode: 409, rawType: 'idempotency_error' });
    expect(conflicts[0]?.message).toContain('another in-progress request using this Idempotent Key');
    // Once the first is done, the same key gets its answer.
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'slow-race' });
    expect(again.id).toBe(created[0]?.id);
    expect((await stripe.paymentIntents.list()).data).toHaveLength(1);
  });
});

describe('pages', () => {
  let s: Started;
  beforeAll(async () => {
    s = await startEmulator();
  });
  afterAll(() => s.stop());

  it('lists payments at / (id, amount, status, metadata, created)', async () => {
    const pi = await authorise(stripeAt(s.emulator.url), { estimateId: 'est-page' });
    const res = await fetch(`${s.emulator.url}/`);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain(pi.id);
    expect(html).toContain('42.00 USD');
    expect(html).toContain('requires_capture');
    expect(html).toContain('estimateId=est-page');
    expect(html).toContain(new Date(pi.created * 1000).toISOString());
  });

  it('serves the card frame for one parent origin: labelled fields, no outside scripts, framed by that origin only', async () => {
    const origin = 'http://127.0.0.1:8080';
    const res = await fetch(`${s.emulator.url}/elements?origin=${encodeURIComponent(origin)}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors ${origin}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    for (const [id, label] of [
      ['number', 'Card number'],
      ['expiry', 'Expiry date (MM / YY)'],
      ['cvc', 'Security code (CVC)'],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`);
      expect(html).toContain(`<input id="${id}"`);
    }
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain(`postMessage({ type: 'decor-payment-method'`);
    expect(html).toContain(JSON.stringify(origin));

    const bad = await fetch(`${s.emulator.url}/elements?origin=${encodeURIComponent('javascript:alert(1)')}`);
    expect(bad.status).toBe(400);
    expect((await fetch(`${s.emulator.url}/elements`)).status).toBe(400);
  });

  it('lets a browser page of that origin make payment methods (CORS)', async () => {
    const origin = 'http://127.0.0.1:8080';
    const preflight = await fetch(`${s.emulator.url}/v1/payment_methods`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    const res = await fetch(`${s.emulator.url}/v1/payment_methods`, {
      method: 'POST',
      headers: {
        origin,
        authorization: 'Bearer pk_test_frame',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'type=card&card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=40&card[cvc]=123',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(((await res.json()) as { id: string }).id).toMatch(/^pm_/);
  });
});
