/**
 * Issue 30's request and answer shapes as JSON schemas (the order service validates and documents its
 * routes with them) and their types, which browsers import as types only (`acceptance.ts`).
 */
import { type Static, Type } from '@sinclair/typebox';
import { ACCEPTANCE_STATES, DEPOSIT_ON_VOID, DEPOSIT_STATES, MAX_EXTEND_DAYS } from './acceptance';

/**
 * The shop's acceptance settings. Exactly one of `depositPercent` / `depositAmount` (dollars), or
 * neither for no deposit. `agreementVersion` grows by one with every new agreement text.
 */
export const AcceptanceSettings = Type.Object({
  depositPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  depositAmount: Type.Optional(Type.Number({ minimum: 0, description: 'Dollars' })),
  validityDays: Type.Integer({ minimum: 1, maximum: 365 }),
  agreementText: Type.String({ minLength: 1, maxLength: 50_000 }),
  agreementVersion: Type.Integer({ minimum: 1 }),
});
export type AcceptanceSettings = Static<typeof AcceptanceSettings>;

/** `PUT /api/settings/acceptance` (superadmin): the version is the server's to bump, not sent. */
export const AcceptanceSettingsChange = Type.Object(
  {
    depositPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    depositAmount: Type.Optional(Type.Number({ minimum: 0 })),
    validityDays: Type.Integer({ minimum: 1, maximum: 365 }),
    agreementText: Type.String({ minLength: 1, maxLength: 50_000 }),
  },
  { additionalProperties: false },
);
export type AcceptanceSettingsChange = Static<typeof AcceptanceSettingsChange>;

/** `POST /api/estimate/:id/acceptance` (with an `Idempotency-Key` header). */
export const AcceptanceRequest = Type.Object(
  {
    /** The `estimateVersion` the customer reviewed (from the GET). */
    estimateVersion: Type.String({ minLength: 1, maxLength: 128 }),
    signerName: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    /** The drawn (or typed) signature as a PNG data URL. */
    signature: Type.String({ minLength: 30, maxLength: 400_000, pattern: '^data:image/png;base64,' }),
    agree: Type.Literal(true),
    /**
     * The payment provider's payment-method id (card details never reach our servers); needed only
     * when the view says `cardRequired`.
     */
    paymentMethod: Type.Optional(Type.String({ minLength: 3, maxLength: 255, pattern: '^pm_' })),
  },
  { additionalProperties: false },
);
export type AcceptanceRequest = Static<typeof AcceptanceRequest>;

/**
 * `POST /api/estimate/:id/acceptance/extend` (staff): the offer may be accepted for `days` more days
 * from now; its holds are taken again if they were released at expiry (a 409 with the short lines when
 * they no longer fit).
 */
export const AcceptanceExtension = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: MAX_EXTEND_DAYS,
      'x-message': `must be a whole number of days from 1 to ${MAX_EXTEND_DAYS}`,
    }),
  },
  { additionalProperties: false },
);
export type AcceptanceExtension = Static<typeof AcceptanceExtension>;

const Money = Type.Object({ amount: Type.Number({ description: 'Dollars' }), currency: Type.String() });

/** `GET /api/estimate/:id/acceptance` and the 201 of the POST. */
export const AcceptanceView = Type.Object({
  state: Type.Union(ACCEPTANCE_STATES.map((s) => Type.Literal(s))),
  /** A digest of exactly what the accept screen shows (lines, prices, totals, details, dates). */
  estimateVersion: Type.String(),
  deposit: Money,
  agreement: Type.Object({ version: Type.Integer(), text: Type.String() }),
  expiresAt: Type.Union([Type.String({ description: 'ISO date and time' }), Type.Null()]),
  accepted: Type.Optional(
    Type.Object({
      signerName: Type.String(),
      at: Type.String(),
      agreementVersion: Type.Integer(),
      /** The signed agreement's address (`/api/estimate/:id/agreement.pdf`), once made. */
      pdf: Type.Union([Type.String(), Type.Null()]),
      depositState: Type.Union(DEPOSIT_STATES.map((s) => Type.Literal(s))),
      /**
       * Staff voided the invoice made from it after its deposit was taken, choosing to refund it or
       * keep it ('captured' then 'refunded' follows a refund; a kept deposit stays 'captured').
       */
      depositOnVoid: Type.Optional(Type.Union(DEPOSIT_ON_VOID.map((a) => Type.Literal(a)))),
    }),
  ),
  /**
   * Where the card is entered: the payment provider's own frame (the local emulator's page under
   * `npm start`; absent when no deposit is due). Card details never reach our servers.
   */
  paymentFrameUrl: Type.Optional(Type.String()),
  /** Accepting needs a card: a deposit is due beyond any still authorised (contracts' cardRequired). */
  cardRequired: Type.Boolean(),
  /** When a change voided a signature: what changed (field names of the estimate). */
  changed: Type.Optional(Type.Array(Type.String())),
});
export type AcceptanceView = Static<typeof AcceptanceView>;

/**
 * `GET /api/estimate/:id/agreement/verify`: the SHA-256 of the PDF recomputed from the stored
 * acceptance record (the same record makes the same bytes) and that of the PDF stored now (null when
 * it is missing); `matches` when both equal the SHA-256 recorded when it was made.
 */
export const AgreementVerification = Type.Object({
  matches: Type.Boolean(),
  recordSha256: Type.String(),
  pdfSha256: Type.Union([Type.String(), Type.Null()]),
});
export type AgreementVerification = Static<typeof AgreementVerification>;
