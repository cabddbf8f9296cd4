/**
 * The payments emulator's Stripe API, driven by the real `stripe` client: authorise (manual
 * capture) → capture (part), cancel, refund, Stripe's test cards and their decline messages, card
 * payment methods by number, idempotent retries, keys, lists and Stripe's error bodies.
 */
import Stripe from 'stripe';
import { PAYMENTS_DEV_KEYS } from '../src';
import { newSecretKey, type Started, startEmulator, stripeAt } from './support';

let s: Started;
beforeAll(async () => {
  s = await startEmulator();
});
afterAll(() => s.stop());

const authorise = (
  stripe: Stripe,
  paymentMethod = 'pm_card_visa',
  extra: Partial<Stripe.PaymentIntentCreateParams> = {},
) =>
  stripe.paymentIntents.create({
    amount: 5000,
    currency: 'usd',
    capture_method: 'manual',
    payment_method: paymentMethod,
    confirm: true,
    metadata: { estimateId: 'est-1', orderId: 'ord-1' },
    description: 'Deposit for estimate 1001',
    ...extra,
  });

/** The StripeError a call rejects with. */
async function failure(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('authorise and capture', () => {
  it('authorises a manual-capture PaymentIntent with pm_card_visa, in Stripe shape', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await authorise(stripe);
    expect(pi).toMatchObject({
      object: 'payment_intent',
      status: 'requires_capture',
      amount: 5000,
      amount_capturable: 5000,
      amount_received: 0,
      currency: 'usd',
      capture_method: 'manual',
      metadata: { estimateId: 'est-1', orderId: 'ord-1' },
      description: 'Deposit for estimate 1001',
      livemode: false,
      cancellation_reason: null,
    });
    expect(pi.id).toMatch(/^pi_/);
    expect(pi.payment_method).toMatch(/^pm_/);
    expect(pi.latest_charge).toMatch(/^ch_/);
    expect(Math.abs(pi.created - Date.now() / 1000)).toBeLessThan(5);
    expect(await stripe.paymentIntents.retrieve(pi.id)).toEqual(pi);
    const charge = await stripe.charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ captured: false, paid: true, status: 'succeeded', amount: 5000 });
    expect(charge.payment_method_details?.card?.last4).toBe('4242');
  });

  it('captures less than authorised: succeeded, amount_received the part, nothing left to capture', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await authorise(stripe);
    const tooMuch = await failure(stripe.paymentIntents.capture(pi.id, { amount_to_capture: 5001 }));
    expect(tooMuch).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'amount_too_large',
    });
    const captured = await stripe.paymentIntents.capture(pi.id, { amount_to_capture: 3000 });
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 3000, amount_capturable: 0 });
    const charge = await stripe.charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ captured: true, amount_captured: 3000 });
    const again = await failure(stripe.paymentIntents.capture(pi.id));
    expect(again).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
    expect(again.message).toContain('it has a status of succeeded');
  });

  it('confirms a PaymentIntent created without confirm; captures it whole', async () => {
    const stripe = stripeAt(s.emulator.url);
    const created = await stripe.paymentIntents.create({
      amount: 1200,
      currency: 'usd',
      capture_method: 'manual',
    });
    expect(created.status).toBe('requires_payment_method');
    const confirmed = await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });
    expect(confirmed.status).toBe('requires_capture');
    expect((await stripe.paymentIntents.capture(created.id)).amount_received).toBe(1200);
  });

  it('captures at once without capture_method manual', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(pi).toMatchObject({ status: 'succeeded', amount_received: 900 });
  });
});

describe('cancel and refund', () => {
  it('cancels an authorisation: canceled, nothing capturable, capture refused', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await authorise(stripe);
    const canceled = await stripe.paymentIntents.cancel(pi.id, {
      cancellation_reason: 'requested_by_customer',
    });
    expect(canceled).toMatchObject({
      status: 'canceled',
      amount_capturable: 0,
      cancellation_reason: 'requested_by_customer',
    });
    expect(typeof canceled.canceled_at).toBe('number');
    const capture = await failure(stripe.paymentIntents.capture(pi.id));
    expect(capture.message).toBe(
      'This PaymentIntent could not be captured because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.',
    );
    expect((await failure(stripe.paymentIntents.cancel(pi.id))).code).toBe('payment_intent_unexpected_state');
  });

  it('refunds part then the rest of a capture; the charge ends refunded; a third refund is refused', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await authorise(stripe);
    await stripe.paymentIntents.capture(pi.id, { amount_to_capture: 4000 });
    const part = await stripe.refunds.create({ payment_intent: pi.id, amount: 1500 });
    expect(part).toMatchObject({
      object: 'refund',
      amount: 1500,
      status: 'succeeded',
      payment_intent: pi.id,
      charge: pi.latest_charge,
      currency: 'usd',
    });
    expect(part.id).toMatch(/^re_/);
    const over = await failure(stripe.refunds.create({ payment_intent: pi.id, amount: 3000 }));
    expect(over).toMatchObject({ statusCode: 400, code: 'amount_too_large' });
    expect(over.message).toBe('Refund amount ($30.00) is greater than unrefunded amount on charge ($25.00)');
    const rest = await stripe.refunds.create({ payment_intent: pi.id });
    expect(rest.amount).toBe(2500);
    const charge = await stripe.charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ refunded: true, amount_refunded: 4000 });
    const third = await failure(stripe.refunds.create({ payment_intent: pi.id }));
    expect(third).toMatchObject({ code: 'charge_already_refunded' });
    const listed = await stripe.refunds.list({ payment_intent: pi.id });
    expect(listed.data.map((r) => r.id)).toEqual([rest.id, part.id]);
  });

  it('refuses to refund an uncaptured authorisation (it is cancelled instead)', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await authorise(stripe);
    const err = await failure(stripe.refunds.create({ payment_intent: pi.id }));
    expect(err.statusCode).toBe(400);
    expect(err.message).toContain('Cancel it to release the uncaptured authorization instead.');
  });
});

describe("Stripe's test cards", () => {
  it('pm_card_chargeDeclined: 402 card_declined / generic_decline, "Your card was declined.", the intent left requiring a payment method', async () => {
    const stripe = stripeAt(s.emulator.url);
    const err = await failure(authorise(stripe, 'pm_card_chargeDeclined'));
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({
      statusCode: 402,
      type: 'StripeCardError',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    const pi = err.payment_intent as Stripe.PaymentIntent;
    expect(pi).toMatchObject({ status: 'requires_payment_method', amount_capturable: 0 });
    expect(pi.last_payment_error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_payment_method');
    // The customer may try another card on the same intent.
    const retried = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    expect(retried.status).toBe('requires_capture');
  });

  it('pm_card_chargeDeclinedInsufficientFunds: 402, decline_code insufficient_funds, "Your card has insufficient funds."', async () => {
    const err = await failure(authorise(stripeAt(s.emulator.url), 'pm_card_chargeDeclinedInsufficientFunds'));
    expect(err).toMatchObject({
      statusCode: 402,
      type: 'StripeCardError',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect((err.payment_intent as Stripe.PaymentIntent).status).toBe('requires_payment_method');
  });

  it('an unknown payment method is a 400 resource_missing', async () => {
    const err = await failure(authorise(stripeAt(s.emulator.url), 'pm_nope'));
    expect(err).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'payment_method' });
    expect(err.message).toBe("No such PaymentMethod: 'pm_nope'");
  });
});

describe('card payment methods (what the card frame makes with a publishable key)', () => {
  const card = (number: string) => ({
    type: 'card' as const,
    card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' },
  });

  it('binds each test number to its outcome; a payment method authorises one PaymentIntent only', async () => {
    const frame = stripeAt(s.emulator.url, PAYMENTS_DEV_KEYS.publishableKey);
    const stripe = stripeAt(s.emulator.url);
    const visa = await frame.paymentMethods.create(card('4242 4242 4242 4242'));
    expect(visa).toMatchObject({
      object: 'payment_method',
      type: 'card',
      card: { brand: 'visa', last4: '4242' },
    });
    expect((await authorise(stripe, visa.id)).status).toBe('requires_capture');
    const reuse = await failure(authorise(stripe, visa.id));
    expect(reuse.statusCode).toBe(400);
    expect(reuse.message).toContain('It may not be used again');

    const declined = await frame.paymentMethods.create(card('4000000000000002'));
    expect((await failure(authorise(stripe, declined.id))).message).toBe('Your card was declined.');
    const poor = await frame.paymentMethods.create(card('4000000000009995'));
    expect((await failure(authorise(stripe, poor.id))).message).toBe('Your card has insufficient funds.');
  });

  it("refuses a wrong number, a past expiry and a bad CVC with Stripe's messages", async () => {
    const frame = stripeAt(s.emulator.url, 'pk_test_any');
    const wrong = await failure(frame.paymentMethods.create(card('4242424242424241')));
    expect(wrong).toMatchObject({
      statusCode: 402,
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
    });
    const expired = await failure(
      frame.paymentMethods.create({
        type: 'card',
        card: { number: '4242424242424242', exp_month: 1, exp_year: 2020, cvc: '123' },
      }),
    );
    expect(expired.message).toBe("Your card's expiration year is invalid.");
    const cvc = await failure(
      frame.paymentMethods.create({
        type: 'card',
        card: {
          number: '4242424242424242',
          exp_month: 1,
          exp_year: new Date().getFullYear() + 3,
          cvc: '12x',
        },
      }),
    );
    expect(cvc.message).toBe("Your card's security code is invalid.");
  });

  it('a publishable key may make payment methods but not PaymentIntents', async () => {
    const err = await failure(authorise(stripeAt(s.emulator.url, 'pk_test_any')));
    expect(err).toMatchObject({ statusCode: 401, type: 'StripeAuthenticationError' });
  });
});

describe('idempotency', () => {
  it('twenty concurrent posts with one Idempotency-Key make one PaymentIntent and get its answer', async () => {
    const stripe = stripeAt(s.emulator.url);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        stripe.paymentIntents.create(
          {
            amount: 7000,
            currency: 'usd',
            capture_method: 'manual',
            payment_method: 'pm_card_visa',
            confirm: true,
            metadata: { estimateId: 'race' },
          },
          { idempotencyKey: 'accept-race-1' },
        ),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const all = await stripe.paymentIntents.list({ limit: 100 });
    expect(all.data.filter((pi) => pi.metadata.estimateId === 'race')).toHaveLength(1);
    expect(all.data).toHaveLength(1);
  });

  it('replays a decline too; the same key with other parameters is refused', async () => {
    const stripe = stripeAt(s.emulator.url);
    const params = {
      amount: 5000,
      currency: 'usd',
      capture_method: 'manual' as const,
      payment_method: 'pm_card_chargeDeclined',
      confirm: true,
    };
    const a = await failure(stripe.paymentIntents.create(params, { idempotencyKey: 'declined-1' }));
    const b = await failure(stripe.paymentIntents.create(params, { idempotencyKey: 'declined-1' }));
    expect(b.statusCode).toBe(402);
    expect((b.payment_intent as Stripe.PaymentIntent).id).toBe((a.payment_intent as Stripe.PaymentIntent).id);
    const other = await failure(
      stripe.paymentIntents.create({ ...params, amount: 6000 }, { idempotencyKey: 'declined-1' }),
    );
    expect(other).toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
    expect(other.message).toContain("Try using a key other than 'declined-1'");
  });

  it('keys are per secret key (one account cannot replay another)', async () => {
    const params = { amount: 5000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true };
    const a = await stripeAt(s.emulator.url).paymentIntents.create(params, { idempotencyKey: 'shared-key' });
    const b = await stripeAt(s.emulator.url).paymentIntents.create(params, { idempotencyKey: 'shared-key' });
    expect(a.id).not.toBe(b.id);
  });
});

describe('keys, lists and errors', () => {
  it('lists a key’s own PaymentIntents, newest first, with limit and cursor', async () => {
    const stripe = stripeAt(s.emulator.url);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await authorise(stripe)).id);
    const page1 = await stripe.paymentIntents.list({ limit: 2 });
    expect(page1).toMatchObject({ object: 'list', has_more: true });
    expect(page1.data.map((p) => p.id)).toEqual([made[2], made[1]]);
    const page2 = await stripe.paymentIntents.list({ limit: 2, starting_after: made[1] });
    expect(page2.data.map((p) => p.id)).toEqual([made[0]]);
    expect(page2.has_more).toBe(false);
    const other = await stripeAt(s.emulator.url).paymentIntents.list();
    expect(other.data).toEqual([]);
    const elsewhere = await failure(stripeAt(s.emulator.url).paymentIntents.retrieve(made[0] as string));
    expect(elsewhere).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('expands latest_charge', async () => {
    const stripe = stripeAt(s.emulator.url);
    const pi = await authorise(stripe);
    const got = await stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] });
    expect((got.latest_charge as Stripe.Charge).object).toBe('charge');
  });

  it('answers a missing key 401, a missing or unknown parameter 400, an unknown route 404', async () => {
    const res = await fetch(`${s.emulator.url}/v1/payment_intents`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    const stripe = stripeAt(s.emulator.url, newSecretKey());
    const missing = await failure(
      stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams),
    );
    expect(missing).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'amount',
      message: 'Missing required param: amount.',
    });
    const unknown = await failure(
      stripe.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        colour: 'red',
      } as Stripe.PaymentIntentCreateParams),
    );
    expect(unknown).toMatchObject({
      code: 'parameter_unknown',
      message: 'Received unknown parameter: colour',
    });
    const small = await failure(stripe.paymentIntents.create({ amount: 10, currency: 'usd' }));
    expect(small.code).toBe('amount_too_small');
    const route = await fetch(`${s.emulator.url}/v1/customers`, {
      headers: { authorization: `Bearer ${newSecretKey()}` },
    });
    expect(route.status).toBe(404);
  });
});
