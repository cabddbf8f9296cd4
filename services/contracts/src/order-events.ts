import { type TString, Type } from '@sinclair/typebox';
import { DEPOSIT_STATES } from './acceptance';
import { defineEvent } from './envelope';
import { type EstimateDetailField, ORDER_FIELDS } from './estimate-fields';
import { ORDER_STATUSES } from './lifecycle';

export * from './estimate-fields';

/**
 * Every event-detail and will-call field that has a value, by its name in contracts' fields table:
 * consumers read `details.location`, checked against the table (a field outside it is still kept).
 */
export const OrderDetails = Type.Partial(
  Type.Object(
    Object.fromEntries(ORDER_FIELDS.map((f) => [f.name, Type.String()])) as Record<
      EstimateDetailField,
      TString
    >,
  ),
);

export const EstimateLine = Type.Object({
  productId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  qty: Type.Integer({ minimum: 1 }),
  priceCents: Type.Integer({ minimum: 0 }),
  totalCents: Type.Integer({ minimum: 0 }),
  qboId: Type.Optional(Type.String()),
});

/**
 * A customer submitted an order request (spec §4). The cart service checks the cart out and opens a
 * new active cart from it; the notification service e-mails the customer and the staff.
 */
export const EstimateSubmitted = defineEvent(
  'EstimateSubmitted',
  1,
  'order',
  Type.Object({
    estimateId: Type.String(),
    docNumber: Type.String(),
    status: Type.Literal('Pending'),
    userId: Type.String(),
    cartId: Type.String(),
    customer: Type.Object({
      email: Type.String(),
      displayName: Type.String(),
      companyName: Type.Optional(Type.String()),
    }),
    /** Every event-detail and will-call field the customer filled in. */
    details: OrderDetails,
    lines: Type.Array(EstimateLine),
    subtotalCents: Type.Integer({ minimum: 0 }),
    truckingCents: Type.Integer({ minimum: 0 }),
    taxCents: Type.Integer({ minimum: 0 }),
    totalCents: Type.Integer({ minimum: 0 }),
    submittedAt: Type.String(),
  }),
);

/*
 * After submission (spec §4). Each event carries the order's whole current state (`order`), so a
 * consumer never has to ask the order service: accounting-sync keeps the QuickBooks document in
 * step, notification writes the e-mails, the gateway streams live status to who may see the order.
 */

export const ORDER_TYPES = ['estimate', 'invoice'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
const OrderStatusSchema = Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)));

/** An estimate or invoice as it is now (money in cents). */
export const OrderState = Type.Object({
  orderType: Type.Union(ORDER_TYPES.map((t) => Type.Literal(t))),
  id: Type.String(),
  docNumber: Type.String(),
  userId: Type.String(),
  cartId: Type.String(),
  /** Invoices: the estimate they were created from. */
  estimateId: Type.Optional(Type.String()),
  status: OrderStatusSchema,
  hasBeenModified: Type.Boolean(),
  /** Estimates: an invoice was created from it. */
  hasInvoice: Type.Optional(Type.Boolean()),
  isInQbo: Type.Boolean(),
  qboId: Type.Union([Type.String(), Type.Null()]),
  customer: Type.Object({
    email: Type.String(),
    displayName: Type.String(),
    companyName: Type.Optional(Type.String()),
  }),
  details: OrderDetails,
  lines: Type.Array(EstimateLine),
  subtotalCents: Type.Integer({ minimum: 0 }),
  truckingCents: Type.Integer({ minimum: 0 }),
  taxCents: Type.Integer({ minimum: 0 }),
  totalCents: Type.Integer({ minimum: 0 }),
  /** Grows with every change of this order: consumers ignore an older state. */
  revision: Type.Integer({ minimum: 0 }),
});

/** Who made a change: the customer, a staff member, or the system (a QuickBooks sync landing). */
export const OrderActor = Type.Object({
  role: Type.Union([Type.Literal('customer'), Type.Literal('staff'), Type.Literal('system')]),
  userId: Type.Union([Type.String(), Type.Null()]),
});

/** Event details, will-call fields or (staff) lines were edited; the order is now modified. */
export const EstimateUpdated = defineEvent(
  'EstimateUpdated',
  1,
  'order',
  Type.Object({ order: OrderState, actor: OrderActor, changed: Type.Array(Type.String()) }),
);

/** Pending → Open (in QuickBooks), Open → Closed (invoiced), → Voided (cancelled). */
export const EstimateStatusChanged = defineEvent(
  'EstimateStatusChanged',
  1,
  'order',
  Type.Object({ order: OrderState, from: OrderStatusSchema, actor: OrderActor }),
);

/** An invoice was requested from an Open, unmodified estimate (it starts Pending). */
export const InvoiceCreated = defineEvent(
  'InvoiceCreated',
  1,
  'order',
  Type.Object({ order: OrderState, actor: OrderActor }),
);

export const InvoiceUpdated = defineEvent(
  'InvoiceUpdated',
  1,
  'order',
  Type.Object({ order: OrderState, actor: OrderActor, changed: Type.Array(Type.String()) }),
);

/** Pending → Open (sent or updated in QuickBooks), Open → Completed, → Voided. */
export const InvoiceStatusChanged = defineEvent(
  'InvoiceStatusChanged',
  1,
  'order',
  Type.Object({ order: OrderState, from: OrderStatusSchema, actor: OrderActor }),
);

/** Staff completed the order ('Complete Order'); published beside InvoiceStatusChanged. */
export const InvoiceCompleted = defineEvent(
  'InvoiceCompleted',
  1,
  'order',
  Type.Object({ order: OrderState, actor: OrderActor }),
);

/** The deposit held for an accepted estimate (issue 30), as the payment provider last said. */
export const AcceptedDeposit = Type.Object({
  amountCents: Type.Integer({ minimum: 0 }),
  /** The provider's PaymentIntent (absent when no deposit was due). */
  intentId: Type.Optional(Type.String()),
  state: Type.Union(DEPOSIT_STATES.map((s) => Type.Literal(s))),
});

/**
 * The customer accepted an Open estimate online (issue 30): signed the agreement of `agreementVersion`
 * and authorised the deposit; the order's booking is confirmed. The signer's address and the
 * signature image stay in the order service (the signed record), never on the bus.
 */
export const EstimateAccepted = defineEvent(
  'EstimateAccepted',
  1,
  'order',
  Type.Object({
    order: OrderState,
    actor: OrderActor,
    acceptance: Type.Object({
      signerName: Type.String(),
      at: Type.String(),
      agreementVersion: Type.Integer({ minimum: 1 }),
      estimateVersion: Type.String(),
      deposit: AcceptedDeposit,
    }),
  }),
);

/** The provider moved an accepted estimate's deposit (released, captured, refunded): from its webhooks. */
export const EstimateDepositChanged = defineEvent(
  'EstimateDepositChanged',
  1,
  'order',
  Type.Object({ order: OrderState, deposit: AcceptedDeposit, from: Type.String() }),
);

/**
 * An accepted estimate became an invoice and its deposit was taken (never more than the invoice's
 * total): accounting-sync records it in QuickBooks as a Payment applied to that invoice, once (the
 * event id is its idempotency key). On the estimate's aggregate, like the deposit itself.
 */
export const DepositCaptured = defineEvent(
  'DepositCaptured',
  1,
  'order',
  Type.Object({
    estimateId: Type.String(),
    invoiceId: Type.String(),
    docNumber: Type.String(),
    userId: Type.String(),
    intentId: Type.String(),
    amountCents: Type.Integer({ minimum: 0 }),
    capturedAt: Type.String(),
  }),
);

/**
 * An estimate sent to QuickBooks was offered for online acceptance (issue 30) under the settings in
 * force then: the deposit due and until when. `opened`: this send made it Open (the customer's
 * 'approved' e-mail tells it, with the Review and accept link); else an approved change renewed it.
 */
export const EstimateOffered = defineEvent(
  'EstimateOffered',
  1,
  'order',
  Type.Object({
    order: OrderState,
    opened: Type.Boolean(),
    depositCents: Type.Integer({ minimum: 0 }),
    expiresAt: Type.String(),
    agreementVersion: Type.Integer({ minimum: 1 }),
  }),
);

/**
 * A change of an accepted estimate voided its signature (issue 30): `changed` names what changed
 * (the EstimateUpdated's fields); the customer is asked to sign again.
 */
export const SignatureVoided = defineEvent(
  'SignatureVoided',
  1,
  'order',
  Type.Object({ order: OrderState, changed: Type.Array(Type.String()), signedAt: Type.String() }),
);

/**
 * The signed agreement of an acceptance was made (a PDF in the shared object store under `pdfKey`,
 * its bytes' SHA-256 recorded on the estimate): the notification service mails it to the customer
 * and to staff. `acceptedAt` names the acceptance it belongs to (a signature again is a new one).
 */
export const AgreementSigned = defineEvent(
  'AgreementSigned',
  1,
  'order',
  Type.Object({
    order: OrderState,
    estimateId: Type.String(),
    docNumber: Type.String(),
    signerName: Type.String(),
    acceptedAt: Type.String(),
    pdfKey: Type.String(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  }),
);

/**
 * An Open estimate's offer ended without an acceptance (issue 30): it can no longer be accepted and
 * its holds were released (other customers may book the units). The customer is told by e-mail;
 * staff see it 'expired' in the orders list and may extend it (EstimateOfferExtended).
 */
export const EstimateOfferExpired = defineEvent(
  'EstimateOfferExpired',
  1,
  'order',
  Type.Object({ order: OrderState, expiresAt: Type.String() }),
);

/**
 * Staff extended an estimate's offer (issue 30): it may be accepted until `expiresAt`. `holdsTaken`:
 * its units had been released at expiry and are booked again.
 */
export const EstimateOfferExtended = defineEvent(
  'EstimateOfferExtended',
  1,
  'order',
  Type.Object({
    order: OrderState,
    actor: OrderActor,
    expiresAt: Type.String(),
    previousExpiresAt: Type.Union([Type.String(), Type.Null()]),
    holdsTaken: Type.Boolean(),
  }),
);

export const ORDER_LIFECYCLE_EVENTS = [
  EstimateUpdated,
  EstimateStatusChanged,
  InvoiceCreated,
  InvoiceUpdated,
  InvoiceStatusChanged,
  InvoiceCompleted,
] as const;
