import { MAX_TURNAROUND_DAYS } from '@decor/contracts';
import { loadConfigOrExit, REQUIRED_IN_PRODUCTION, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const orderConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4104 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'order' }),
  /**
   * The trucking fee in dollars until the catalogue's first TruckingFeeChanged arrives (spec §9:
   * trucking has a minimum charge of 350). The catalogue announces its fee at start, so this only
   * covers a fresh deployment whose catalogue events have not been read yet.
   */
  TRUCKING_FEE_DEFAULT: Type.Number({ minimum: 0, maximum: 1_000_000, default: 350 }),
  /**
   * The IANA time zone whose calendar decides "today" for the 3-day edit rule (spec §9: customers
   * cannot edit within 3 days of the event) and for bookings, e.g. America/Denver.
   */
  SHOP_TIME_ZONE: Type.String({
    pattern: '^(UTC|[A-Za-z_]+(/[A-Za-z0-9_+-]+)+)$',
    'x-message': 'must be an IANA time zone such as UTC or America/Denver',
    default: 'UTC',
  }),
  /** The shop's turnaround buffer (whole days before and after every booking) unless overridden. */
  TURNAROUND_BEFORE_DAYS: Type.Integer({ minimum: 0, maximum: MAX_TURNAROUND_DAYS, default: 1 }),
  TURNAROUND_AFTER_DAYS: Type.Integer({ minimum: 0, maximum: MAX_TURNAROUND_DAYS, default: 1 }),
  /** Whether customers' Pending requests hold stock (issue 15: a shop setting, default yes). */
  PENDING_REQUESTS_HOLD_STOCK: Type.Boolean({ default: true }),
  /** Holds written but not yet seen on their order for this long are reconciled by the sweeper. */
  HOLD_RECONCILE_AFTER_MS: Type.Integer({ minimum: 1000, default: 30_000 }),
  /**
   * Issue 30, the payment provider (payments/stripe.ts). Unset: no deposit can be authorised (503);
   * estimates whose deposit is none are still accepted. Stripe's test or live secret key.
   */
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({ pattern: '^((sk|rk)_[A-Za-z0-9_]+)?$', 'x-message': 'must be a Stripe secret key (sk_…)' }),
  ),
  /** The local payments emulator's address (npm start, tests); unset: Stripe itself. */
  STRIPE_API_URL: Type.Optional(
    Type.String({ pattern: '^(https?://[^/]+/?)?$', 'x-message': 'must be an http(s) origin' }),
  ),
  /** The webhook endpoint's signing secret (whsec_…): unset refuses every webhook. */
  STRIPE_WEBHOOK_SECRET: Type.Optional(Type.String()),
  /**
   * The provider's card-entry frame the accept screen embeds: the emulator's page under npm start,
   * `/payments/card` (the gateway's page with Stripe's Payment Element) with Stripe itself.
   */
  PAYMENTS_FRAME_URL: Type.Optional(Type.String({ pattern: '^((https?://|/).+)?$' })),
  /** Each provider call's time box: an acceptance answers 503 within 5 s when the provider is down. */
  PAYMENTS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 4_500, default: 4_000 }),
  /** A deposit authorised but not recorded for this long is cancelled by the sweeper (jobs/). */
  ACCEPTANCE_SWEEP_AFTER_MS: Type.Integer({ minimum: 1_000, default: 120_000 }),
  /** How often each instance looks for offers that ended unaccepted and releases their holds (jobs/). */
  OFFER_EXPIRY_SWEEP_MS: Type.Integer({ minimum: 500, default: 60_000 }),
  /**
   * Issue 30, the signed agreements' PDFs: the shared object store (the catalogue's images' bucket;
   * defaults match the local S3 emulator of `npm start`), under their own folder.
   */
  S3_ENDPOINT: Type.String({
    pattern: '^https?://',
    default: 'http://127.0.0.1:4569',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  S3_BUCKET: Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', default: 'decor-images' }),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.String({ minLength: 1, default: 'S3RVER', [REQUIRED_IN_PRODUCTION]: true }),
  S3_SECRET_ACCESS_KEY: Type.String({ minLength: 1, default: 'S3RVER', [REQUIRED_IN_PRODUCTION]: true }),
  AGREEMENT_KEY_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$', default: 'agreements' }),
  /** The shop's name on the signed agreement. */
  COMPANY_NAME: Type.String({ minLength: 1, default: 'Gala & Grove Event Rentals' }),
  /** Parallel PDF makers per instance (0: this instance makes none). */
  AGREEMENT_JOB_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 20, default: 2 }),
});

export type OrderConfig = ReturnType<typeof loadOrderConfig>;

export function loadOrderConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(orderConfigSchema, env);
}
