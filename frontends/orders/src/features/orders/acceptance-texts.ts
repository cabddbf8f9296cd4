/**
 * The accept screen's and the order's acceptance words (issue 30). The sentences the server also
 * says (refusals, 'This estimate changed since you opened it') are contracts' ACCEPTANCE_MESSAGES.
 */
import {
  ACCEPTANCE_MESSAGES,
  type AcceptanceState,
  type DepositState,
  ORDER_FIELDS,
} from '@decor/contracts/rules';

export const ACCEPT_TEXTS = {
  reviewAndAccept: 'Review and accept',
  title: (docNumber: string) => `Review and accept Estimate #${docNumber}`,
  backToOrder: 'Back to the order',
  loading: 'Loading the estimate',
  fetchError: 'An error occurred while fetching the estimate',
  agreement: (version: number) => `Rental agreement (version ${version})`,
  deposit: 'Deposit',
  depositNote: 'Authorised on your card now and taken only when the order is invoiced.',
  noDeposit: 'No deposit is due for this order.',
  signature: 'Signature',
  fullName: 'Full name',
  fullNameHelp: 'Type your full name as you sign',
  pad: 'Signature pad: draw your signature with a mouse, pen or finger',
  clear: 'Clear the signature',
  typeInstead: 'Type my signature instead',
  drawInstead: 'Draw my signature instead',
  typedPreview: 'Your typed signature',
  agree: 'I have read and agree to the rental agreement',
  card: 'Card details',
  cardFrame: 'Card entry by the payment provider',
  cardReady: 'Card details entered.',
  accept: 'Accept',
  missing: 'To accept, please complete:',
  missingName: 'your full name',
  missingSignature: 'your signature',
  missingAgree: "the 'I have read and agree' box",
  missingCard: 'the card details',
  reload: 'Reload the estimate',
  accepted: 'Accepted',
  acceptedBy: (name: string, at: string) => `Signed by ${name} on ${at}`,
  whatChanged: 'What changed since it was signed:',
  expiresAt: (at: string) => `Can be accepted until ${at}`,
  endedAt: (at: string) => `The acceptance period ended on ${at}`,
  acceptance: 'Acceptance',
  signedAgreement: 'Signed agreement (PDF)',
  staffCannotSign: 'Only the customer who placed this order can accept it',
  /** The orders list's mark of an offer that ended unaccepted (customer and staff). */
  expiredMark: 'Expired',
  /** Staff's filter of the estimates by acceptance. */
  filter: 'Filter by acceptance',
  filterPrefix: 'Acceptance',
} as const;

/** The acceptance filter's choices (staff's orders list), in the order they are offered. */
export const ACCEPTANCE_FILTER_OPTIONS: { value: 'all' | AcceptanceState; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'awaiting', label: 'Awaiting' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'expired', label: 'Expired' },
  { value: 'voided', label: 'Signature voided' },
  { value: 'not-offered', label: 'Not offered' },
];

/** What the order detail says of each state (the customer's words, then staff's). */
export const STATE_TEXT: Record<AcceptanceState, { customer: string; staff: string }> = {
  'not-offered': { customer: '', staff: 'Not offered for acceptance' },
  awaiting: { customer: 'Waiting for your acceptance', staff: "Awaiting the customer's acceptance" },
  accepted: { customer: 'Accepted', staff: 'Accepted' },
  // The customer's order page says why Review and accept is gone (the server's refusal, word for word).
  expired: { customer: ACCEPTANCE_MESSAGES.expired, staff: 'Expired without acceptance' },
  voided: {
    customer: 'Changed since you signed: please sign again',
    staff: 'Signature voided by a change',
  },
};

export const DEPOSIT_TEXT: Record<DepositState | 'kept', string> = {
  authorised: 'authorised (held on the card)',
  captured: 'captured',
  refunded: 'refunded',
  released: 'released',
  /** Captured, and kept by staff's choice when its invoice was voided. */
  kept: 'kept',
};

const FIELD_LABELS: Record<string, string> = {
  CartProducts: 'Items and quantities',
  lines: 'Items and quantities',
  truckingFee: 'Trucking fee',
  total: 'Total',
  ...Object.fromEntries(ORDER_FIELDS.map((f) => [f.name, f.label])),
};

/** A changed field's name as the customer reads it (the estimate's field labels). */
export const changedFieldLabel = (name: string): string => FIELD_LABELS[name] ?? name;

/** '{weekday, month day, year} at {h:mm AM}' in the browser's time zone. */
export function formatMoment(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toLocaleString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}
