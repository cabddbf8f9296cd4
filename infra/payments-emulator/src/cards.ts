/**
 * Stripe's test cards: the fixed payment-method ids (`pm_card_visa`, …) and the card numbers the
 * card frame may send, with how each ends when charged, and the card checks of `POST /v1/payment_methods`.
 */
import { stripeErrors } from './errors';
import type { Params } from './form';
import { type CardOutcome, newId, type Obj, type StoredPaymentMethod } from './store';

interface TestCard {
  number: string;
  brand: string;
  outcome: CardOutcome;
}

const VISA = { number: '4242424242424242', brand: 'visa', outcome: 'succeeds' } as const;
const DECLINED = { number: '4000000000000002', brand: 'visa', outcome: 'generic_decline' } as const;
const NO_FUNDS = { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds' } as const;
const MASTERCARD = { number: '5555555555554444', brand: 'mastercard', outcome: 'succeeds' } as const;

export const TEST_CARDS: readonly TestCard[] = [VISA, DECLINED, NO_FUNDS, MASTERCARD];

/** Stripe's test payment-method ids; each use makes a payment method of its own, as at Stripe. */
export const TEST_PAYMENT_METHODS: Record<string, TestCard> = {
  pm_card_visa: VISA,
  pm_card_mastercard: MASTERCARD,
  pm_card_chargeDeclined: DECLINED,
  pm_card_visa_chargeDeclined: DECLINED,
  pm_card_chargeDeclinedInsufficientFunds: NO_FUNDS,
  pm_card_visa_chargeDeclinedInsufficientFunds: NO_FUNDS,
};

/** The decline a charge with this outcome gets (code, decline_code, message: Stripe's texts). */
export const DECLINES: Record<Exclude<CardOutcome, 'succeeds'>, { code: string; message: string }> = {
  generic_decline: { code: 'card_declined', message: 'Your card was declined.' },
  insufficient_funds: { code: 'card_declined', message: 'Your card has insufficient funds.' },
};

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

export function paymentMethodObject(card: TestCard, expMonth: number, expYear: number, created: number): Obj {
  return {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: expMonth,
      exp_year: expYear,
      funding: 'credit',
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
    },
    created,
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

/** A new payment method from a test id (`pm_card_visa`), as Stripe makes one for each use. */
export function fromTestId(id: string, now: number): StoredPaymentMethod | undefined {
  const card = TEST_PAYMENT_METHODS[id];
  if (!card) return undefined;
  const year = new Date(now * 1000).getUTCFullYear() + 1;
  return { obj: paymentMethodObject(card, 12, year, now), outcome: card.outcome };
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** `POST /v1/payment_methods` with `type=card&card[number]=…`: Stripe's checks and messages. */
export function fromCardParams(p: Params, now: number): StoredPaymentMethod {
  if (p.type === undefined) throw stripeErrors.missing('type');
  if (p.type !== 'card') throw stripeErrors.invalid('type', 'Only card payment methods are emulated.');
  const card = p.card && typeof p.card === 'object' ? (p.card as Params) : undefined;
  if (!card) throw stripeErrors.missing('card');
  const number = str(card.number).replace(/[\s-]/g, '');
  if (!number) throw stripeErrors.missing('card[number]');
  if (!/^\d{12,19}$/.test(number) || !luhn(number))
    throw stripeErrors.card('incorrect_number', 'Your card number is incorrect.', { param: 'number' });
  const month = Number(str(card.exp_month));
  if (!str(card.exp_month)) throw stripeErrors.missing('card[exp_month]');
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw stripeErrors.card('invalid_expiry_month', "Your card's expiration month is invalid.", {
      param: 'exp_month',
    });
  let year = Number(str(card.exp_year));
  if (!str(card.exp_year)) throw stripeErrors.missing('card[exp_year]');
  if (year < 100) year += 2000;
  const today = new Date(now * 1000);
  const thisYear = today.getUTCFullYear();
  if (!Number.isInteger(year) || year < thisYear || year > thisYear + 50)
    throw stripeErrors.card('invalid_expiry_year', "Your card's expiration year is invalid.", {
      param: 'exp_year',
    });
  if (year === thisYear && month < today.getUTCMonth() + 1)
    throw stripeErrors.card('invalid_expiry_month', "Your card's expiration month is invalid.", {
      param: 'exp_month',
    });
  const cvc = str(card.cvc);
  if (cvc && !/^\d{3,4}$/.test(cvc))
    throw stripeErrors.card('invalid_cvc', "Your card's security code is invalid.", { param: 'cvc' });
  const known = TEST_CARDS.find((c) => c.number === number);
  if (!known)
    throw stripeErrors.card(
      'card_declined',
      'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
      { decline_code: 'test_mode_live_card' },
    );
  return { obj: paymentMethodObject(known, month, year, now), outcome: known.outcome };
}
