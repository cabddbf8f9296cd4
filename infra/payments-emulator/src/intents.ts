/**
 * PaymentIntents, their charges and refunds, by Stripe's rules: confirm with a test card
 * authorises (manual capture: `requires_capture`) or declines (402, the intent back to
 * `requires_payment_method`); capture up to the amount authorised; cancel; refund what was
 * captured; an authorisation not captured within 7 days lapses (`canceled`, reason `automatic`).
 */
import { DECLINES, fromTestId } from './cards';
import { type Ctx, snapshot } from './context';
import { stripeErrors } from './errors';
import type { Params } from './form';
import { bool, integer, metadata, onlyKnown, text } from './params';
import { newId, type Obj, type StoredIntent, type StoredPaymentMethod } from './store';

/** How long an uncaptured card authorisation holds (Stripe: 7 days for online card payments). */
export const AUTHORISATION_DAYS = 7;

const CREATE_PARAMS = [
  'amount',
  'currency',
  'capture_method',
  'payment_method',
  'payment_method_types',
  'payment_method_options',
  'automatic_payment_methods',
  'confirm',
  'confirmation_method',
  'metadata',
  'description',
  'receipt_email',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'return_url',
  'off_session',
  'error_on_requires_action',
  'setup_future_usage',
  'expand',
  'use_stripe_sdk',
  'transfer_group',
] as const;
const CONFIRM_PARAMS = [
  'payment_method',
  'capture_method',
  'return_url',
  'off_session',
  'error_on_requires_action',
  'payment_method_options',
  'payment_method_types',
  'receipt_email',
  'setup_future_usage',
  'expand',
  'use_stripe_sdk',
];
const UPDATE_PARAMS = ['metadata', 'description', 'receipt_email', 'expand'];
const CAPTURE_PARAMS = ['amount_to_capture', 'metadata', 'statement_descriptor', 'final_capture', 'expand'];
const CANCEL_PARAMS = ['cancellation_reason', 'expand'];
const CANCEL_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'];
const CAPTURE_METHODS = ['automatic', 'automatic_async', 'manual'];

export function findIntent(ctx: Ctx, account: string, id: string, param?: string): StoredIntent {
  const intent = ctx.store.state.intents[id];
  if (!intent || intent.account !== account) throw stripeErrors.noSuch('payment_intent', id, param);
  return intent;
}

/** `POST /v1/payment_intents`; with `confirm=true` it goes on to confirm (which may decline). */
export function createIntent(ctx: Ctx, account: string, p: Params): Obj {
  onlyKnown(p, CREATE_PARAMS);
  const amount = integer(p, 'amount');
  if (amount === undefined) throw stripeErrors.missing('amount');
  const currency = text(p, 'currency')?.toLowerCase();
  if (!currency) throw stripeErrors.missing('currency');
  if (!/^[a-z]{3}$/.test(currency)) throw stripeErrors.invalid('currency', `Invalid currency: ${currency}.`);
  if (amount < 50) throw stripeErrors.amountTooSmall();
  if (amount > 99_999_999) throw stripeErrors.amountTooLarge('Amount must be no more than $999,999.99');
  const captureMethod = text(p, 'capture_method') ?? 'automatic_async';
  if (!CAPTURE_METHODS.includes(captureMethod))
    throw stripeErrors.invalid(
      'capture_method',
      `Invalid capture_method: must be one of ${CAPTURE_METHODS.join(', ')}`,
    );
  const confirm = bool(p, 'confirm') ?? false;
  const pmId = text(p, 'payment_method');
  const id = newId('pi');
  const obj: Obj = {
    id,
    object: 'payment_intent',
    amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: captureMethod,
    client_secret: `${id}_secret_${newId('x').slice(2)}`,
    confirmation_method: 'automatic',
    created: ctx.store.now(),
    currency,
    customer: null,
    description: text(p, 'description') ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: metadata(p),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    processing: null,
    receipt_email: text(p, 'receipt_email') ?? null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  // The payment method must exist before anything is stored (Stripe refuses the request whole).
  const pm = pmId === undefined ? undefined : resolvePaymentMethod(ctx, pmId, id);
  const intent: StoredIntent = { obj, account };
  ctx.store.state.intents[id] = intent;
  if (pm) {
    obj.payment_method = pm.obj.id;
    obj.status = 'requires_confirmation';
  }
  ctx.store.changed();
  ctx.events.emit('payment_intent.created', obj, account);
  if (confirm) return confirmIntent(ctx, intent, {});
  return obj;
}

/** A payment method by id: a test id makes a fresh one; one already authorised cannot be used again. */
function resolvePaymentMethod(ctx: Ctx, id: string, intentId: string): StoredPaymentMethod {
  const fresh = fromTestId(id, ctx.store.now());
  if (fresh) {
    ctx.store.state.paymentMethods[fresh.obj.id] = fresh;
    return fresh;
  }
  const pm = ctx.store.state.paymentMethods[id];
  if (!pm) throw stripeErrors.noSuch('PaymentMethod', id, 'payment_method');
  if (pm.usedBy && pm.usedBy !== intentId)
    throw stripeErrors.invalid(
      'payment_method',
      'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
    );
  return pm;
}

export function updateIntent(ctx: Ctx, intent: StoredIntent, p: Params): Obj {
  onlyKnown(p, UPDATE_PARAMS);
  const obj = intent.obj;
  obj.metadata = metadata(p, obj.metadata as Record<string, string>);
  const description = text(p, 'description');
  if (description !== undefined) obj.description = description || null;
  const email = text(p, 'receipt_email');
  if (email !== undefined) obj.receipt_email = email || null;
  ctx.store.changed();
  return obj;
}

/** `POST /v1/payment_intents/:id/confirm` (and create with confirm=true). */
export function confirmIntent(ctx: Ctx, intent: StoredIntent, p: Params): Obj {
  onlyKnown(p, CONFIRM_PARAMS);
  const obj = intent.obj;
  if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(String(obj.status)))
    throw stripeErrors.unexpectedState(
      `You cannot confirm this PaymentIntent because it has a status of ${obj.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.`,
    );
  const captureMethod = text(p, 'capture_method');
  if (captureMethod !== undefined) {
    if (!CAPTURE_METHODS.includes(captureMethod))
      throw stripeErrors.invalid('capture_method', `Invalid capture_method: ${captureMethod}`);
    obj.capture_method = captureMethod;
  }
  const pmParam = text(p, 'payment_method');
  const pm =
    pmParam !== undefined
      ? resolvePaymentMethod(ctx, pmParam, obj.id)
      : obj.payment_method
        ? ctx.store.state.paymentMethods[String(obj.payment_method)]
        : undefined;
  if (!pm)
    throw stripeErrors.unexpectedState(
      "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with a payment method, pass a `payment_method` parameter.",
    );
  obj.payment_method = pm.obj.id;
  const now = ctx.store.now();
  const charge = newCharge(obj, pm, now);
  ctx.store.state.charges[charge.id] = charge;
  obj.latest_charge = charge.id;
  ctx.store.changed();

  if (pm.outcome !== 'succeeds') {
    const decline = DECLINES[pm.outcome];
    const error = {
      type: 'card_error' as const,
      code: decline.code,
      decline_code: pm.outcome,
      message: decline.message,
      doc_url: 'https://stripe.com/docs/error-codes/card-declined',
      charge: charge.id,
    };
    Object.assign(charge, {
      status: 'failed',
      paid: false,
      failure_code: decline.code,
      failure_message: decline.message,
      outcome: {
        network_status: 'declined_by_network',
        reason: pm.outcome,
        risk_level: 'normal',
        seller_message: 'The bank did not return any further details with this decline.',
        type: 'issuer_declined',
      },
    });
    Object.assign(obj, {
      status: 'requires_payment_method',
      payment_method: null,
      last_payment_error: { ...error, payment_method: snapshot(pm.obj) },
    });
    ctx.events.emit('charge.failed', charge, intent.account);
    ctx.events.emit('payment_intent.payment_failed', obj, intent.account);
    throw stripeErrors.card(decline.code, decline.message, {
      decline_code: pm.outcome,
      charge: charge.id,
      payment_intent: snapshot(obj),
      payment_method: snapshot(pm.obj),
    });
  }

  pm.usedBy = obj.id;
  obj.last_payment_error = null;
  if (obj.capture_method === 'manual') {
    obj.status = 'requires_capture';
    obj.amount_capturable = obj.amount;
    ctx.events.emit('charge.succeeded', charge, intent.account);
    ctx.events.emit('payment_intent.amount_capturable_updated', obj, intent.account);
  } else {
    Object.assign(charge, { captured: true, amount_captured: obj.amount });
    obj.status = 'succeeded';
    obj.amount_received = obj.amount;
    ctx.events.emit('charge.succeeded', charge, intent.account);
    ctx.events.emit('payment_intent.succeeded', obj, intent.account);
  }
  return obj;
}

function newCharge(intent: Obj, pm: StoredPaymentMethod, now: number): Obj {
  const card = pm.obj.card as Record<string, unknown>;
  const id = newId('ch');
  return {
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: 0,
    amount_refunded: 0,
    balance_transaction: null,
    billing_details: pm.obj.billing_details,
    calculated_statement_descriptor: 'DECOR RENTALS',
    captured: false,
    created: now,
    currency: intent.currency,
    customer: null,
    description: intent.description,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: intent.metadata,
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: intent.id,
    payment_method: pm.obj.id,
    payment_method_details: {
      card: {
        brand: card.brand,
        capture_before: now + AUTHORISATION_DAYS * 86_400,
        country: card.country,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        funding: card.funding,
        last4: card.last4,
        network: card.brand,
      },
      type: 'card',
    },
    receipt_url: null,
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${id}/refunds` },
    status: 'succeeded',
  };
}

/** The PaymentIntent's latest charge. */
export const chargeOf = (ctx: Ctx, intent: Obj) =>
  intent.latest_charge ? ctx.store.state.charges[String(intent.latest_charge)] : undefined;

/** `POST /v1/payment_intents/:id/capture`: all or part of what was authorised. */
export function captureIntent(ctx: Ctx, intent: StoredIntent, p: Params): Obj {
  onlyKnown(p, CAPTURE_PARAMS);
  const obj = intent.obj;
  if (obj.status !== 'requires_capture')
    throw stripeErrors.unexpectedState(
      `This PaymentIntent could not be captured because it has a status of ${obj.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
    );
  const capturable = Number(obj.amount_capturable);
  const amount = integer(p, 'amount_to_capture') ?? capturable;
  if (amount <= 0)
    throw stripeErrors.invalid('amount_to_capture', 'The amount to capture must be a positive integer.');
  if (amount > capturable)
    throw stripeErrors.amountTooLarge(
      `The amount to capture (${amount}) must be less than or equal to the PaymentIntent's amount capturable (${capturable}).`,
      'amount_to_capture',
    );
  obj.metadata = metadata(p, obj.metadata as Record<string, string>);
  Object.assign(obj, { status: 'succeeded', amount_capturable: 0, amount_received: amount });
  const charge = chargeOf(ctx, obj);
  if (charge) Object.assign(charge, { captured: true, amount_captured: amount });
  ctx.store.changed();
  if (charge) ctx.events.emit('charge.captured', charge, intent.account);
  ctx.events.emit('payment_intent.succeeded', obj, intent.account);
  return obj;
}

const CANCELABLE = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
];

/** `POST /v1/payment_intents/:id/cancel`: releases an authorisation. */
export function cancelIntent(ctx: Ctx, intent: StoredIntent, p: Params, reason?: string): Obj {
  onlyKnown(p, CANCEL_PARAMS);
  const obj = intent.obj;
  if (!CANCELABLE.includes(String(obj.status)))
    throw stripeErrors.unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${obj.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
    );
  const given = text(p, 'cancellation_reason');
  if (given !== undefined && !CANCEL_REASONS.includes(given))
    throw stripeErrors.invalid(
      'cancellation_reason',
      `Invalid cancellation_reason: must be one of ${CANCEL_REASONS.join(', ')}`,
    );
  const wasAuthorised = obj.status === 'requires_capture';
  Object.assign(obj, {
    status: 'canceled',
    canceled_at: ctx.store.now(),
    cancellation_reason: reason ?? given ?? null,
    amount_capturable: 0,
  });
  const charge = chargeOf(ctx, obj);
  if (wasAuthorised && charge) Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
  ctx.store.changed();
  if (reason === 'automatic' && charge) ctx.events.emit('charge.expired', charge, intent.account);
  ctx.events.emit('payment_intent.canceled', obj, intent.account);
  return obj;
}

/** Cancels (reason `automatic`) every authorisation past its 7 days; returns how many. */
export function lapseAuthorisations(ctx: Ctx): number {
  const now = ctx.store.now();
  let lapsed = 0;
  for (const intent of Object.values(ctx.store.state.intents)) {
    if (intent.obj.status !== 'requires_capture') continue;
    const charge = chargeOf(ctx, intent.obj);
    const details = charge?.payment_method_details as { card?: { capture_before?: number } } | undefined;
    const before = details?.card?.capture_before ?? intent.obj.created + AUTHORISATION_DAYS * 86_400;
    if (before > now) continue;
    cancelIntent(ctx, intent, {}, 'automatic');
    lapsed++;
  }
  return lapsed;
}
