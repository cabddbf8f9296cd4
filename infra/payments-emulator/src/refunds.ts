/**
 * Refunds by Stripe's rules: all or part of what a PaymentIntent's charge captured and has not yet
 * refunded; the charge ends `refunded` when nothing is left.
 */
import { type Ctx, snapshot } from './context';
import { stripeErrors } from './errors';
import type { Params } from './form';
import { chargeOf, findIntent } from './intents';
import { integer, metadata, onlyKnown, text } from './params';
import { newId, type Obj, type StoredIntent } from './store';

const REFUND_PARAMS = ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand'];
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'];

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** `POST /v1/refunds`: all or part of what a PaymentIntent's charge captured and has not refunded. */
export function createRefund(ctx: Ctx, account: string, p: Params): Obj {
  onlyKnown(p, REFUND_PARAMS);
  const piId = text(p, 'payment_intent');
  const chargeId = text(p, 'charge');
  if (!piId && !chargeId) throw stripeErrors.missing('payment_intent');
  let intent: StoredIntent;
  if (piId) intent = findIntent(ctx, account, piId, 'payment_intent');
  else {
    const ch = ctx.store.state.charges[chargeId as string];
    if (!ch) throw stripeErrors.noSuch('charge', String(chargeId), 'charge');
    intent = findIntent(ctx, account, String(ch.payment_intent), 'charge');
  }
  const charge = chargeOf(ctx, intent.obj);
  if (!charge || intent.obj.status !== 'succeeded' || charge.captured !== true)
    throw stripeErrors.invalid(
      piId ? 'payment_intent' : 'charge',
      `This PaymentIntent (${intent.obj.id}) does not have a successful charge to refund.${intent.obj.status === 'requires_capture' ? ' Cancel it to release the uncaptured authorization instead.' : ''}`,
    );
  const refundable = Number(charge.amount_captured) - Number(charge.amount_refunded);
  if (refundable <= 0) throw stripeErrors.alreadyRefunded(charge.id);
  const amount = integer(p, 'amount') ?? refundable;
  if (amount <= 0) throw stripeErrors.invalid('amount', 'Refund amount must be a positive integer.');
  if (amount > refundable)
    throw stripeErrors.amountTooLarge(
      `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(refundable)})`,
    );
  const reason = text(p, 'reason');
  if (reason !== undefined && !REFUND_REASONS.includes(reason))
    throw stripeErrors.invalid('reason', `Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`);
  const refund: Obj = {
    id: newId('re'),
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: ctx.store.now(),
    currency: charge.currency,
    destination_details: {
      card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
      type: 'card',
    },
    metadata: metadata(p),
    payment_intent: intent.obj.id,
    reason: reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  ctx.store.state.refunds[refund.id] = refund;
  const refunded = Number(charge.amount_refunded) + amount;
  const refunds = charge.refunds as { data: Obj[]; total_count: number };
  Object.assign(charge, {
    amount_refunded: refunded,
    refunded: refunded === Number(charge.amount_captured),
    refunds: { ...refunds, data: [snapshot(refund), ...refunds.data], total_count: refunds.total_count + 1 },
  });
  ctx.store.changed();
  ctx.events.emit('refund.created', refund, account);
  ctx.events.emit('charge.refunded', charge, account);
  return refund;
}
