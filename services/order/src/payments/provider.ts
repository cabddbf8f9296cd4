/**
 * The payment provider as the order service uses it (issue 30): one interface, so the acceptance's
 * steps, the sweeper and the webhooks never name Stripe. `stripe.ts` is the adapter (Stripe, or the
 * local emulator that speaks its API). Card details never reach us: only a payment-method id.
 */

/** A PaymentIntent as far as we care: its id, state and amounts (cents). */
export interface Intent {
  id: string;
  /** The provider's status: 'requires_capture' is an authorisation held on the card. */
  status: string;
  amountCents: number;
  capturedCents: number;
}

export type AuthoriseOutcome = { authorised: Intent } | { declined: string };

export interface AuthoriseRequest {
  amountCents: number;
  currency: string;
  paymentMethod: string;
  /** The provider's idempotency key: the same key answers the same intent (racing posts share one). */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A verified webhook: its id (for dedupe), type and the PaymentIntent it is about. */
export interface ProviderEvent {
  id: string;
  type: string;
  intentId: string | null;
}

export interface PaymentProvider {
  /** Creates and confirms a manual-capture PaymentIntent: held on the card, not taken. */
  authorise(request: AuthoriseRequest): Promise<AuthoriseOutcome>;
  cancel(intentId: string): Promise<Intent>;
  capture(intentId: string, amountCents: number): Promise<Intent>;
  refund(intentId: string, amountCents?: number): Promise<void>;
  retrieve(intentId: string): Promise<Intent>;
  /** Checks a webhook's signature header against the raw body; throws when forged or stale. */
  verifyWebhook(rawBody: Buffer, signature: string): ProviderEvent;
}

/** The provider did not answer in time, or is not configured: the caller answers 503. */
export class ProviderDownError extends Error {
  constructor(
    cause?: unknown,
    /** It may have acted before going silent (a timeout), as opposed to refusing outright (503, refused). */
    readonly outcomeUnknown = false,
  ) {
    super('The payment provider did not answer', { cause });
    this.name = 'ProviderDownError';
  }
}

/** A webhook whose signature does not verify. */
export class ForgedWebhookError extends Error {
  constructor(cause?: unknown) {
    super('Webhook signature verification failed', { cause });
    this.name = 'ForgedWebhookError';
  }
}
