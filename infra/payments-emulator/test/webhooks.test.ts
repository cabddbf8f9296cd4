/**
 * The payments emulator's webhooks: every event an `evt_` id, signed like Stripe's so
 * `stripe.webhooks.constructEvent` verifies it with the endpoint's secret (and rejects a forged
 * one), the event types the product follows, retries with backoff until the receiver answers 2xx.
 */
import Stripe from 'stripe';
import { paymentsControl } from '../src';
import { eventually, newSecretKey, type Started, startEmulator, stripeAt, webhookReceiver } from './support';

const SECRET = 'whsec_test_payments_emulator';
let s: Started;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  receiver = await webhookReceiver();
  // An endpoint from the start options, as npm start configures the gateway's.
  s = await startEmulator({ webhookEndpoints: [{ url: receiver.url, secret: SECRET }] });
});
afterAll(async () => {
  await s.stop();
  await receiver.close();
});

const verifier = new Stripe('sk_test_verifier');

/** The verified events about one PaymentIntent the receiver got so far. */
const eventsAbout = (id: string) =>
  receiver.received
    .map((r) => verifier.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), SECRET))
    .filter((e) => {
      const obj = e.data.object as { id: string; payment_intent?: string };
      return obj.id === id || obj.payment_intent === id;
    });

const authorise = (stripe: Stripe, pm = 'pm_card_visa') =>
  stripe.paymentIntents.create({
    amount: 2500,
    currency: 'usd',
    capture_method: 'manual',
    payment_method: pm,
    confirm: true,
    metadata: { estimateId: 'est-w' },
  });

it('signs each event so constructEvent verifies it: authorised, captured, refunded', async () => {
  const stripe = stripeAt(s.emulator.url);
  const pi = await authorise(stripe);
  const authorised = await eventually(() =>
    eventsAbout(pi.id).find((e) => e.type === 'payment_intent.amount_capturable_updated'),
  );
  expect(authorised.id).toMatch(/^evt_/);
  expect(authorised).toMatchObject({ object: 'event', livemode: false });
  expect(authorised.data.object).toMatchObject({
    id: pi.id,
    status: 'requires_capture',
    amount_capturable: 2500,
  });
  expect((authorised.data.object as Stripe.PaymentIntent).metadata).toEqual({ estimateId: 'est-w' });

  await stripe.paymentIntents.capture(pi.id, { amount_to_capture: 2000 });
  const succeeded = await eventually(() =>
    eventsAbout(pi.id).find((e) => e.type === 'payment_intent.succeeded'),
  );
  expect(succeeded.data.object).toMatchObject({ status: 'succeeded', amount_received: 2000 });

  await stripe.refunds.create({ payment_intent: pi.id, amount: 500 });
  const refunded = await eventually(() => eventsAbout(pi.id).find((e) => e.type === 'charge.refunded'));
  expect(refunded.data.object).toMatchObject({
    object: 'charge',
    amount_refunded: 500,
    payment_intent: pi.id,
  });

  const ids = eventsAbout(pi.id).map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
});

it('sends payment_intent.canceled and payment_intent.payment_failed', async () => {
  const stripe = stripeAt(s.emulator.url);
  const pi = await authorise(stripe);
  await stripe.paymentIntents.cancel(pi.id);
  const canceled = await eventually(() =>
    eventsAbout(pi.id).find((e) => e.type === 'payment_intent.canceled'),
  );
  expect(canceled.data.object).toMatchObject({ status: 'canceled' });

  const declined = await authorise(stripe, 'pm_card_chargeDeclined').catch(
    (e: Stripe.errors.StripeError) => e,
  );
  const failedId = ((declined as Stripe.errors.StripeError).payment_intent as Stripe.PaymentIntent).id;
  const failed = await eventually(() =>
    eventsAbout(failedId).find((e) => e.type === 'payment_intent.payment_failed'),
  );
  expect((failed.data.object as Stripe.PaymentIntent).last_payment_error?.message).toBe(
    'Your card was declined.',
  );
});

it('a forged or altered event fails verification', async () => {
  const stripe = stripeAt(s.emulator.url);
  const pi = await authorise(stripe);
  await eventually(() => eventsAbout(pi.id).length > 0);
  const real = receiver.received.find((r) => r.body.includes(pi.id));
  if (!real) throw new Error('no event');
  const header = String(real.headers['stripe-signature']);
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  const altered = real.body.replace('"amount": 2500', '"amount": 1');
  expect(() => verifier.webhooks.constructEvent(altered, header, SECRET)).toThrow(
    Stripe.errors.StripeSignatureVerificationError,
  );
  const forged = verifier.webhooks.generateTestHeaderString({
    payload: real.body,
    secret: 'whsec_someone_else',
  });
  expect(() => verifier.webhooks.constructEvent(real.body, forged, SECRET)).toThrow(
    Stripe.errors.StripeSignatureVerificationError,
  );
});

it('retries a failed delivery with backoff; the retry carries the same evt_ id', async () => {
  const flaky = await webhookReceiver((n) => (n <= 2 ? 500 : 200));
  const own = await startEmulator({ webhookRetry: { baseMs: 100 } });
  try {
    const key = newSecretKey();
    const control = paymentsControl(own.emulator.url);
    const endpoint = await control.addWebhookEndpoint({
      url: flaky.url,
      apiKey: key,
      enabledEvents: ['payment_intent.amount_capturable_updated'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const started = Date.now();
    await authorise(stripeAt(own.emulator.url, key));
    await eventually(() => flaky.received.length >= 3);
    // 100 ms, then 200 ms: the third attempt no sooner than ~300 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const ids = flaky.received.map(
      (r) =>
        verifier.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), endpoint.secret).id,
    );
    expect(new Set(ids).size).toBe(1);
    // The emulator records the delivery once it has read the third answer.
    let deliveries: unknown[] = [];
    for (let i = 0; i < 40; i++) {
      const [event] = await control.events({ type: 'payment_intent.amount_capturable_updated' });
      deliveries = event?.deliveries ?? [];
      if (deliveries.some((d) => (d as { status: string }).status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 3 })]);
    await new Promise((r) => setTimeout(r, 400));
    expect(flaky.received).toHaveLength(3);
  } finally {
    await own.stop();
    await flaky.close();
  }
});
