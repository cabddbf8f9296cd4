import type { InfraEndpoints } from './endpoints';

/** The payment settings the services read (the order service's Stripe client, the frontends' card frame). */
export const PAYMENTS_ENV_KEYS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_API_URL',
  'STRIPE_WEBHOOK_SECRET',
  'PAYMENTS_FRAME_URL',
] as const;

/** The gateway's card frame with Stripe's Payment Element (gateway/src/card-frame.ts). */
export const STRIPE_CARD_FRAME = '/payments/card';

/**
 * The payment settings for the services: the local payments emulator's, unless STRIPE_SECRET_KEY is
 * set in the environment — then Stripe itself (test mode), with the environment's own
 * STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, STRIPE_API_URL empty (the client's default host)
 * and PAYMENTS_FRAME_URL the gateway's page with Stripe's Payment Element instead of the emulator's frame.
 *   STRIPE_API_URL      http://127.0.0.1:<port>: `new Stripe(key, { host, port, protocol: 'http' })`
 *   PAYMENTS_FRAME_URL  the card frame: <PAYMENTS_FRAME_URL>?origin=<the embedding page's origin>
 */
export function paymentsEnv(e: InfraEndpoints, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env.STRIPE_SECRET_KEY) {
    return {
      ...Object.fromEntries(PAYMENTS_ENV_KEYS.map((k) => [k, env[k] ?? ''])),
      PAYMENTS_FRAME_URL: env.PAYMENTS_FRAME_URL || STRIPE_CARD_FRAME,
    };
  }
  const emulator: Record<(typeof PAYMENTS_ENV_KEYS)[number], string> = {
    STRIPE_SECRET_KEY: e.payments.secretKey,
    STRIPE_PUBLISHABLE_KEY: e.payments.publishableKey,
    STRIPE_API_URL: e.payments.url,
    STRIPE_WEBHOOK_SECRET: e.payments.webhookSecret,
    PAYMENTS_FRAME_URL: `${e.payments.url}/elements`,
  };
  return emulator;
}
