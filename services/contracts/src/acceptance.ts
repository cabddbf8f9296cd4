/**
 * Issue 30: a customer accepts an Open estimate online — signs the shop's rental agreement and
 * authorises a deposit — and the estimate's holds become a confirmed booking. Written once here: the
 * settings' shape and defaults, the deposit rule, the states an acceptance goes through, the request
 * and answer shapes and the sentences users read. Added beside the seed specs: no status, screen or
 * text of theirs changes. Pure and browser-safe (the JSON schemas are in `acceptance-schemas.ts`).
 */
import type { AcceptanceSettings } from './acceptance-schemas';

export type {
  AcceptanceExtension,
  AcceptanceRequest,
  AcceptanceSettings,
  AcceptanceSettingsChange,
  AcceptanceView,
} from './acceptance-schemas';

/** What the acceptance screen and `GET /api/estimate/:id/acceptance` say the estimate is in. */
export const ACCEPTANCE_STATES = ['not-offered', 'awaiting', 'accepted', 'expired', 'voided'] as const;
export type AcceptanceState = (typeof ACCEPTANCE_STATES)[number];

/** The deposit's life at the payment provider: held on the card, taken, given back, or let go. */
export const DEPOSIT_STATES = ['authorised', 'captured', 'refunded', 'released'] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];

/** The longest staff extend an offer by at once (`POST /api/estimate/:id/acceptance/extend`). */
export const MAX_EXTEND_DAYS = 90;

/** The shop's defaults until staff change them (issue 30 "The shop's settings"). */
export const ACCEPTANCE_DEFAULTS = { depositPercent: 25, validityDays: 14 } as const;

/**
 * The rental agreement's first version: the terms the checkout summary shows (spec §2, section 9's
 * constants), one paragraph each. Staff replace it in the acceptance settings (a new version).
 */
export const DEFAULT_AGREEMENT_TERMS = [
  'An overtime fee of $35.00 per staff member per hour (or part of an hour) applies when the set or strike cannot take place at the contracted time.',
  'Strikes after 11:00pm are charged extra labor.',
  'Orders of $600.00 or less (excluding taxes and trucking) carry a $100.00 minimum service charge.',
  'Special orders require a 50% non-refundable payment upfront, due within one week of the signed contract.',
  'Trucking and labor charges are estimates.',
  'The warranty period is ten days.',
] as const;

export const DEFAULT_AGREEMENT_TEXT = DEFAULT_AGREEMENT_TERMS.join('\n\n');

/** The deposit for an order total (cents): a percentage of it, a fixed amount (never above it), or none. */
export function depositCents(
  settings: Pick<AcceptanceSettings, 'depositPercent' | 'depositAmount'>,
  totalCents: number,
): number {
  if (settings.depositAmount !== undefined)
    return Math.min(Math.round(settings.depositAmount * 100), totalCents);
  if (settings.depositPercent !== undefined) return Math.round((totalCents * settings.depositPercent) / 100);
  return 0;
}

/**
 * Whether accepting needs a card: a new authorisation is asked only when the deposit due is more
 * than the one still held (signing again after a change keeps the deposit already authorised).
 */
export const cardRequired = (dueCents: number, heldAuthorisedCents: number): boolean =>
  dueCents > heldAuthorisedCents;

/** When an estimate sent at `sentAt` stops being acceptable (staff may extend it). */
export function acceptanceExpiresAt(sentAt: Date, validityDays: number): Date {
  return new Date(sentAt.getTime() + validityDays * 24 * 60 * 60 * 1000);
}

/**
 * An estimate's acceptance state from its facts: only an Open (sent to QuickBooks), unmodified
 * estimate is offered; a recorded acceptance stands until a change voids it, and then the customer
 * may sign again (state 'voided', the screen says what changed) until the offer expires.
 */
export function acceptanceState(facts: {
  status: string;
  hasBeenModified: boolean;
  accepted: boolean;
  /** A change since the signature voided it (the customer is asked to sign again). */
  signatureVoided: boolean;
  expiresAt: Date | null;
  now: Date;
}): AcceptanceState {
  if (facts.accepted) return 'accepted';
  if (facts.status !== 'Open' || facts.hasBeenModified) return 'not-offered';
  if (facts.expiresAt && facts.now.getTime() >= facts.expiresAt.getTime()) return 'expired';
  return facts.signatureVoided ? 'voided' : 'awaiting';
}

/** The states in which the customer may accept (sign and authorise). */
export const ACCEPTABLE_STATES: ReadonlySet<AcceptanceState> = new Set(['awaiting', 'voided']);

/** The sentences users read (the availability 409 keeps its own). */
export const ACCEPTANCE_MESSAGES = {
  changed: 'This estimate changed since you opened it',
  notOffered: 'This estimate cannot be accepted: it is not open for acceptance',
  expired: 'This estimate can no longer be accepted: its acceptance period has ended',
  voided: 'This estimate changed after it was signed: review it and sign again',
  alreadyAccepted: 'This estimate has already been accepted',
  ownerOnly: 'Only the customer who placed this order can accept it',
  providerDown: 'Payments cannot be taken right now, try again shortly',
  idempotencyKey: 'An Idempotency-Key header is required',
  cardRequired: 'Enter a card to authorise the deposit',
  notExtendable: 'This estimate cannot be extended: it is not open for acceptance',
} as const;

/**
 * Staff's extension of an offer in the back office (the order's Acceptance card): one dialog asking
 * for the days from today, then the new end; a refusal shows the server's message (and short lines).
 */
export const EXTEND_OFFER_TEXTS = {
  action: 'Extend',
  title: 'Extend the acceptance period',
  days: 'Days from today',
  daysHelp: `The customer may then review and accept the estimate for this many days (1 to ${MAX_EXTEND_DAYS}).`,
  daysInvalid: `Enter a whole number of days from 1 to ${MAX_EXTEND_DAYS}`,
  confirm: 'Extend the period',
  keep: 'Cancel',
  extended: (until: string) => `Extended: the estimate can be accepted until ${until}`,
  failed: 'The acceptance period could not be extended',
} as const;

/** The orders list's `acceptance` filter: one of the states, as the list's rows show them. */
export const ACCEPTANCE_FILTER_MESSAGE = `must be one of: ${ACCEPTANCE_STATES.join(', ')}`;

/**
 * The customer's e-mail when an estimate's offer ended unaccepted (EstimateOfferExpired): it can no
 * longer be accepted, its units are let go, and the shop can extend it.
 */
export const OFFER_EXPIRED_EMAIL = {
  subject: (docNumber: string) => `Your estimate #${docNumber} can no longer be accepted`,
  intro: (docNumber: string) =>
    `The time to accept your estimate #${docNumber} online has ended, so it can no longer be accepted and the items it reserved have been released.`,
  contact:
    'If you would still like to go ahead, please contact us: we can extend it so that you can review and accept it again.',
} as const;

/**
 * The customer's e-mail when staff extended an estimate's offer (EstimateOfferExtended): it may be
 * reviewed and accepted until the new end (`until`, as the e-mail shows it), with the link to do so;
 * when its items had been released at the offer's end, they are held again.
 */
export const OFFER_EXTENDED_EMAIL = {
  subject: (docNumber: string) => `More time to accept your estimate #${docNumber}`,
  intro: (docNumber: string, until: string) =>
    `We extended the time to accept your estimate #${docNumber} online: you can review and accept it until ${until}.`,
  heldAgain: 'The items it reserves are held for you again.',
  next: 'To confirm your booking, review the estimate and accept it online.',
  link: 'Review and accept',
} as const;

/** Voiding an invoice whose deposit was taken: staff refund or keep it (`depositAction` of the PUT). */
export const DEPOSIT_ON_VOID = ['refund', 'keep'] as const;
export type DepositOnVoid = (typeof DEPOSIT_ON_VOID)[number];

/** The back office's words for that choice, asked in the order's cancel confirmation (issue 30). */
export const DEPOSIT_ON_VOID_TEXTS = {
  question: "The customer's deposit was taken for this invoice: refund it or keep it?",
  refund: 'Refund the deposit',
  keep: 'Keep the deposit',
} as const;
