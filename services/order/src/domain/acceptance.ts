/**
 * Issue 30's rules of one estimate's acceptance, pure: what exactly the customer is shown (and its
 * digest, the `estimateVersion`), the offer an estimate got when it was sent, the view the accept
 * screen reads, and whether a POST may go ahead. The store writes; contracts' acceptance.ts has the
 * states, the deposit rule and the sentences.
 */
import { createHash } from 'node:crypto';
import {
  ACCEPTABLE_STATES,
  ACCEPTANCE_MESSAGES,
  type AcceptanceState,
  type AcceptanceView,
  acceptanceExpiresAt,
  acceptanceState,
  cardRequired,
  type DepositOnVoid,
  type DepositState,
  depositCents,
  toDollars,
} from '@decor/contracts';
import type { OrderRecord } from './view';

export const CURRENCY = 'usd';

/** What an estimate was offered under when it was sent (Open): kept with it until it is sent again. */
export interface Offer {
  sentAt: Date;
  expiresAt: Date;
  agreementVersion: number;
  agreementSha256: string;
  depositCents: number;
  /**
   * Set once when the offer ended unaccepted and the sweep released its holds (EstimateOfferExpired):
   * when, and the estimate's `editedRevision` then (bookings.ts' offerLapsed). Cleared by an extension.
   */
  lapsed?: { at: Date; editedRevision: number } | null;
}

/** The signed record (the proof): who, what, under which agreement, where and when. */
export interface AcceptanceRecord {
  userId: string;
  signerName: string;
  signatureSha256: string;
  estimateVersion: string;
  /** The canonical content shown (its SHA-256 is the estimateVersion), kept to verify later. */
  content: string;
  agreementVersion: number;
  agreementSha256: string;
  ip: string;
  userAgent: string;
  at: Date;
  /** `<userId>:<Idempotency-Key>` of the request that made it: the same key again gets its answer. */
  idempotencyScope: string;
  /** The drawn signature (PNG data URL), kept for the signed agreement's PDF. */
  signature?: string;
  /** The signed agreement, once the job made it: its object key and its bytes' SHA-256. */
  pdf?: { key: string; sha256: string } | null;
}

/** Where the owner and staff fetch an acceptance's signed agreement. */
export const agreementUrl = (estimateId: string) => `/api/estimate/${estimateId}/agreement.pdf`;

export interface Deposit {
  amountCents: number;
  intentId: string | null;
  state: DepositState;
}

/** A deposit authorisation asked of the provider and not yet recorded (the sweeper's work list). */
export interface PendingAuthorisation {
  key: string;
  at: Date;
  paymentMethod: string;
  amountCents: number;
  /**
   * Set by the sweeper before it cancels the authorisation: from then on no acceptance may record
   * it (the provider's idempotent replay still answers the authorisation as held after the cancel).
   */
  sweeping?: boolean;
}

/** The deposit still authorised at the provider (kept when the customer signs again), in cents. */
export const heldDepositCents = (deposit: Deposit | null): number =>
  deposit?.state === 'authorised' && deposit.intentId ? deposit.amountCents : 0;

export interface AcceptanceFacts {
  offer: Offer | null;
  acceptance: AcceptanceRecord | null;
  deposit: Deposit | null;
  /** Set when a change voided a signature (what changed). */
  voidedChanges: string[] | null;
  /**
   * Staff's choice for the captured deposit when they voided the invoice made from the estimate;
   * only once that invoice is Voided (the choice is stored before the void it goes with).
   */
  depositOnVoid?: DepositOnVoid | null;
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Exactly what the accept screen shows, as one string with a fixed key order: the lines (product,
 * name, description, quantity, price, line total), the trucking fee, the totals, the event details
 * and dates. Any change of any of them changes the string and so the version.
 */
export function canonicalContent(order: OrderRecord): string {
  const details = Object.fromEntries(
    Object.entries(order.details)
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return JSON.stringify({
    docNumber: order.docNumber,
    lines: order.lines.map((l) => [l.productId, l.name, l.description, l.qty, l.priceCents, l.totalCents]),
    subtotalCents: order.subtotalCents,
    truckingCents: order.truckingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    details,
  });
}

export const estimateVersionOf = (order: OrderRecord) => sha256(canonicalContent(order));

/** The offer of an estimate sent now under these settings. */
export function offerFor(
  order: Pick<OrderRecord, 'totalCents'>,
  settings: { depositPercent?: number; depositAmount?: number; validityDays: number },
  agreement: { version: number; sha256: string },
  now: Date,
): Offer {
  return {
    sentAt: now,
    expiresAt: acceptanceExpiresAt(now, settings.validityDays),
    agreementVersion: agreement.version,
    agreementSha256: agreement.sha256,
    depositCents: depositCents(settings, order.totalCents),
  };
}

export function stateOf(order: OrderRecord, facts: AcceptanceFacts, now: Date): AcceptanceState {
  return acceptanceState({
    status: order.status,
    hasBeenModified: order.hasBeenModified,
    accepted: facts.acceptance !== null,
    signatureVoided: facts.voidedChanges !== null,
    expiresAt: facts.offer?.expiresAt ?? null,
    now,
  });
}

export function acceptanceView(
  order: OrderRecord,
  facts: AcceptanceFacts,
  agreement: { version: number; text: string },
  opts: { now: Date; paymentFrameUrl?: string },
): AcceptanceView {
  const { offer, acceptance, deposit } = facts;
  const dueCents = deposit?.amountCents ?? offer?.depositCents ?? 0;
  const needsCard = !acceptance && cardRequired(offer?.depositCents ?? 0, heldDepositCents(deposit));
  return {
    state: stateOf(order, facts, opts.now),
    estimateVersion: acceptance?.estimateVersion ?? estimateVersionOf(order),
    deposit: { amount: toDollars(dueCents), currency: CURRENCY.toUpperCase() },
    agreement,
    expiresAt: offer ? offer.expiresAt.toISOString() : null,
    ...(acceptance
      ? {
          accepted: {
            signerName: acceptance.signerName,
            at: acceptance.at.toISOString(),
            agreementVersion: acceptance.agreementVersion,
            pdf: acceptance.pdf ? agreementUrl(order.id) : null,
            depositState: deposit?.state ?? 'authorised',
            ...(facts.depositOnVoid ? { depositOnVoid: facts.depositOnVoid } : {}),
          },
        }
      : {}),
    cardRequired: needsCard,
    ...(opts.paymentFrameUrl && needsCard ? { paymentFrameUrl: opts.paymentFrameUrl } : {}),
    ...(facts.voidedChanges ? { changed: facts.voidedChanges } : {}),
  };
}

/** Whether staff may extend the offer (null), or why not: only an offered, unaccepted estimate. */
export function extendRefusal(order: OrderRecord, facts: AcceptanceFacts, now: Date): string | null {
  const state = stateOf(order, facts, now);
  if (state === 'accepted') return ACCEPTANCE_MESSAGES.alreadyAccepted;
  if (state === 'not-offered' || !facts.offer) return ACCEPTANCE_MESSAGES.notExtendable;
  return null;
}

export type AcceptRefusal = { status: 409; message: string; estimateVersion?: string };

/**
 * Whether the estimate stands accepted by this customer for this very version: what a second tab
 * (another Idempotency-Key) racing the first is answered with, once the first is recorded.
 */
export function acceptedAsAsked(
  order: OrderRecord,
  facts: AcceptanceFacts,
  userId: string,
  estimateVersion: string,
  now: Date,
): boolean {
  return (
    stateOf(order, facts, now) === 'accepted' &&
    facts.acceptance?.userId === userId &&
    facts.acceptance.estimateVersion === estimateVersion
  );
}

/** Whether a POST for `estimateVersion` may go ahead (null) or its 409. */
export function acceptRefusal(
  order: OrderRecord,
  facts: AcceptanceFacts,
  estimateVersion: string,
  now: Date,
): AcceptRefusal | null {
  const state = stateOf(order, facts, now);
  if (state === 'accepted') return { status: 409, message: ACCEPTANCE_MESSAGES.alreadyAccepted };
  if (state === 'expired') return { status: 409, message: ACCEPTANCE_MESSAGES.expired };
  if (!ACCEPTABLE_STATES.has(state) || !facts.offer)
    return { status: 409, message: ACCEPTANCE_MESSAGES.notOffered };
  const current = estimateVersionOf(order);
  if (current !== estimateVersion)
    return { status: 409, message: ACCEPTANCE_MESSAGES.changed, estimateVersion: current };
  return null;
}

/**
 * The provider's idempotency key of one attempt: racing posts of the same estimate, version and card
 * share it, so they share one authorisation. `attempt` grows when an earlier attempt's authorisation
 * was cancelled (a retry must not get the cancelled one back).
 */
export const authorisationKey = (
  estimateId: string,
  version: string,
  paymentMethod: string,
  attempt: number,
) => `accept:${estimateId}:${version}:${paymentMethod}${attempt > 0 ? `:${attempt}` : ''}`;

/** The SHA-256 of a PNG data URL's image bytes (what was drawn, not its text encoding). */
export function signatureSha256(dataUrl: string): string {
  return sha256(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
}
