import Stripe from 'stripe';
import {
  type AuthoriseOutcome,
  type AuthoriseRequest,
  ForgedWebhookError,
  type Intent,
  type PaymentProvider,
  ProviderDownError,
  type ProviderEvent,
} from './provider';

export interface StripeSettings {
  secretKey: string;
  /** The local emulator's (or a proxy's) address; absent: Stripe itself. */
  apiUrl?: string;
  webhookSecret: string;
  /** Every call is time-boxed: a provider that hangs answers ProviderDownError, never a stuck request. */
  timeoutMs: number;
}

const intentOf = (pi: Stripe.PaymentIntent): Intent => ({
  id: pi.id,
  status: pi.status,
  amountCents: pi.amount,
  capturedCents: pi.amount_received ?? 0,
});

/** What the client throws when the provider could not be reached, failed or was too slow. */
function isOutage(err: unknown): boolean {
  const { type, statusCode } = (err ?? {}) as { type?: string; statusCode?: number };
  return (
    type === 'StripeConnectionError' ||
    type === 'StripeAPIError' ||
    type === 'StripeRateLimitError' ||
    (statusCode ?? 0) >= 500
  );
}

/**
 * Stripe's 409 for a key another request is still executing. The client throws it as a
 * StripeAPIError whose `rawType` says so (not as StripeIdempotencyError, which is a reused key with
 * other parameters), so it would otherwise read as an outage.
 */
const keyInFlight = (err: unknown) => {
  const { type, rawType, statusCode } = (err ?? {}) as {
    type?: string;
    rawType?: string;
    statusCode?: number;
  };
  return rawType === 'idempotency_error' && (statusCode === 409 || type === 'StripeAPIError');
};

/** A connection that failed before any answer, or a 5xx: the provider did nothing we must undo. */
const refusedOutright = (err: unknown) => {
  const { type, statusCode, message } = (err ?? {}) as {
    type?: string;
    statusCode?: number;
    message?: string;
  };
  return (
    (statusCode ?? 0) >= 500 ||
    (type === 'StripeConnectionError' && !/timeout|timed out/i.test(message ?? ''))
  );
};

/** Races `call` against the time box (the client's own timeout may not cover a slow TLS or body). */
async function timeBoxed<T>(timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderDownError('timed out', true)), timeoutMs);
  });
  try {
    return await Promise.race([call(), late]);
  } catch (err) {
    if (err instanceof ProviderDownError) throw err;
    if (isOutage(err)) throw new ProviderDownError(err, !refusedOutright(err));
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** The Stripe adapter: the `stripe` client, pointed at STRIPE_API_URL's host when set. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const url = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 0, // a retry must not outlast the time box; callers retry with the same key
    timeout: settings.timeoutMs,
    telemetry: false,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  const boxed = <T>(call: () => Promise<T>) => timeBoxed(settings.timeoutMs, call);

  return {
    async authorise(request: AuthoriseRequest): Promise<AuthoriseOutcome> {
      // The same key in flight elsewhere (racing posts): Stripe answers 409 until the first is done.
      const create = async (): Promise<Stripe.PaymentIntent> => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await createOnce();
          } catch (err) {
            if (!keyInFlight(err) || attempt >= 20) throw err;
            await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
          }
        }
      };
      const createOnce = () =>
        stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency,
            payment_method: request.paymentMethod,
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            capture_method: 'manual',
            confirm: true,
            metadata: request.metadata,
          },
          { idempotencyKey: request.idempotencyKey },
        );
      try {
        const pi = await boxed(create);
        return { authorised: intentOf(pi) };
      } catch (err) {
        if ((err as { type?: string })?.type === 'StripeCardError')
          return { declined: (err as Error).message };
        throw err;
      }
    },
    cancel: async (intentId) => {
      try {
        return intentOf(await boxed(() => stripe.paymentIntents.cancel(intentId)));
      } catch (err) {
        // Already cancelled (or captured): say what it is now.
        if ((err as { code?: string })?.code === 'payment_intent_unexpected_state')
          return intentOf(await boxed(() => stripe.paymentIntents.retrieve(intentId)));
        throw err;
      }
    },
    capture: async (intentId, amountCents) => {
      try {
        return intentOf(
          await boxed(() =>
            stripe.paymentIntents.capture(
              intentId,
              { amount_to_capture: amountCents },
              { idempotencyKey: `capture:${intentId}` },
            ),
          ),
        );
      } catch (err) {
        // Captured already (a redelivered event after a crash), or released: say what it is now.
        if ((err as { code?: string })?.code === 'payment_intent_unexpected_state')
          return intentOf(await boxed(() => stripe.paymentIntents.retrieve(intentId)));
        throw err;
      }
    },
    refund: async (intentId, amountCents) => {
      try {
        // One refund per intent: a redelivered void asks again under the same key.
        await boxed(() =>
          stripe.refunds.create(
            { payment_intent: intentId, ...(amountCents === undefined ? {} : { amount: amountCents }) },
            { idempotencyKey: `refund:${intentId}` },
          ),
        );
      } catch (err) {
        if ((err as { code?: string })?.code !== 'charge_already_refunded') throw err;
      }
    },
    retrieve: async (intentId) => intentOf(await boxed(() => stripe.paymentIntents.retrieve(intentId))),
    verifyWebhook(rawBody: Buffer, signature: string): ProviderEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch (err) {
        throw new ForgedWebhookError(err);
      }
      const object = event.data.object as { id?: string; object?: string; payment_intent?: unknown };
      const intentId =
        object.object === 'payment_intent'
          ? (object.id ?? null)
          : typeof object.payment_intent === 'string'
            ? object.payment_intent
            : ((object.payment_intent as { id?: string } | null)?.id ?? null);
      return { id: event.id, type: event.type, intentId };
    },
  };
}

/** No provider configured: every call is an outage (503), so no deposit can be taken. */
export const unconfiguredProvider: PaymentProvider = {
  authorise: async () => {
    throw new ProviderDownError('no STRIPE_SECRET_KEY');
  },
  cancel: async () => {
    throw new ProviderDownError('no STRIPE_SECRET_KEY');
  },
  capture: async () => {
    throw new ProviderDownError('no STRIPE_SECRET_KEY');
  },
  refund: async () => {
    throw new ProviderDownError('no STRIPE_SECRET_KEY');
  },
  retrieve: async () => {
    throw new ProviderDownError('no STRIPE_SECRET_KEY');
  },
  verifyWebhook: () => {
    throw new ForgedWebhookError('no STRIPE_WEBHOOK_SECRET');
  },
};
