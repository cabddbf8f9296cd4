import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The accept screen's card entry with Stripe itself (issue 30): Stripe's Payment Element cannot be
 * served by the emulator, and its script comes from js.stripe.com at run time, so the gateway serves
 * the one page that loads it, framed by the accept screen like the emulator's `/elements`, speaking
 * the same messages (`decor-payment-method` with a payment-method id, `decor-payment-error`,
 * `decor-payment-submit`). Card details stay in Stripe's frames inside it; only this page's policy
 * lets Stripe's script, frames and API in (Stripe's documented CSP sources), never the product's
 * pages. The order service points the screen here with `PAYMENTS_FRAME_URL=/payments/card`.
 */
export const CARD_FRAME_PATH = '/payments/card';

export const STRIPE_SOURCES = {
  script: 'https://js.stripe.com',
  frames: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connect: 'https://api.stripe.com',
} as const;

/** The page's policy: its own nonce'd script and style, Stripe's sources, framed only by `origin`. */
export function cardFramePolicy(nonce: string, origin: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${STRIPE_SOURCES.script}`,
    // The Payment Element styles its own frames; this page's one <style> carries the nonce.
    `style-src 'nonce-${nonce}'`,
    `frame-src ${STRIPE_SOURCES.frames.join(' ')}`,
    `connect-src ${STRIPE_SOURCES.connect}`,
    'img-src https://*.stripe.com',
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${origin}`,
  ].join('; ');
}

interface CardFrameQuery {
  origin: string;
  amount: number;
  currency: string;
}

const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page: Stripe.js with the publishable key, Elements in manual-capture payment mode for the
 * deposit's amount (what the customer is shown), the Payment Element, and a button. On submit the
 * element is validated (`elements.submit()`), a PaymentMethod is made from it and its id handed to
 * the embedding page at `origin` only. Our servers then authorise with it (manual capture).
 */
export function cardFramePage(publishableKey: string, q: CardFrameQuery, nonce: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Card details</title>
<style nonce="${nonce}">body{font:15px system-ui;margin:0;padding:12px;color:#222}#message{min-height:1.3em;margin:8px 0}
#message.error{color:#b3261e}button{font:inherit;padding:8px 16px;border:0;border-radius:4px;background:#1f4f8f;color:#fff;cursor:pointer}
button:disabled{opacity:.6}</style>
<main><form id="card" novalidate aria-label="Card details"><div id="element"></div>
<p id="message" role="status" aria-live="polite"></p><button type="submit" id="use">Use this card</button></form></main>
<script nonce="${nonce}" src="${STRIPE_SOURCES.script}/v3/"></script>
<script nonce="${nonce}">
(() => {
  const origin = ${scriptJson(q.origin)};
  const message = document.getElementById('message'), button = document.getElementById('use');
  const say = (text, error) => { message.textContent = text; message.className = error ? 'error' : ''; };
  const fail = (text) => { say(text, true); window.parent.postMessage({ type: 'decor-payment-error', message: text }, origin); };
  if (typeof Stripe !== 'function') return fail('The card form could not be loaded. Try again shortly.');
  const stripe = Stripe(${scriptJson(publishableKey)});
  const elements = stripe.elements({ mode: 'payment', amount: ${q.amount}, currency: ${scriptJson(q.currency)}, captureMethod: 'manual', paymentMethodCreation: 'manual' });
  elements.create('payment').mount('#element');
  let busy = false;
  async function submit() {
    if (busy) return;
    busy = true; button.disabled = true; say('Checking the card…', false);
    try {
      const checked = await elements.submit();
      if (checked.error) return fail(checked.error.message);
      const made = await stripe.createPaymentMethod({ elements });
      if (made.error) return fail(made.error.message);
      const card = made.paymentMethod.card || {};
      say(card.last4 ? 'Card ending ' + card.last4 + ' is ready.' : 'The card is ready.', false);
      window.parent.postMessage({ type: 'decor-payment-method', paymentMethod: made.paymentMethod.id, card: { brand: card.brand, last4: card.last4 } }, origin);
    } catch (err) {
      fail('The payment service did not answer. Try again.');
    } finally { busy = false; button.disabled = false; }
  }
  document.getElementById('card').addEventListener('submit', (e) => { e.preventDefault(); submit(); });
  window.addEventListener('message', (e) => { if (e.origin === origin && e.data && e.data.type === 'decor-payment-submit') submit(); });
})();
</script></html>`;
}

/** An embedding page's origin as a policy source: http(s), a host, nothing else. */
function validOrigin(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * `GET /payments/card?origin=&amount=&currency=`, served when a Stripe publishable key is set. The
 * embedding origin must be the product's (this address, or an origin CORS allows), so the page can
 * be framed by, and post the payment method to, the product only.
 */
export function registerCardFrame(
  app: FastifyInstance,
  opts: { publishableKey: string; allowedOrigins: readonly string[] },
): void {
  app.get(
    CARD_FRAME_PATH,
    {
      schema: {
        summary:
          "Stripe's card entry for the accept screen's frame (issue 30), when a publishable key is set",
        querystring: {
          type: 'object',
          required: ['origin', 'amount', 'currency'],
          properties: {
            origin: { type: 'string', maxLength: 200 },
            // Stripe's smallest charge is 50 cents; the largest it takes is 99,999,999.
            amount: { type: 'integer', minimum: 50, maximum: 99_999_999 },
            currency: { type: 'string', pattern: '^[a-z]{3}$' },
          },
        },
      },
    },
    async (request, reply) => {
      const q = request.query as CardFrameQuery;
      const origin = validOrigin(q.origin);
      const own = `${request.protocol}://${request.host}`;
      if (!origin || (origin !== own && !opts.allowedOrigins.includes(origin)))
        return reply.code(400).send({ message: "origin must be the product's own address" });
      const nonce = randomBytes(16).toString('base64');
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', cardFramePolicy(nonce, origin))
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .send(cardFramePage(opts.publishableKey, { ...q, origin }, nonce));
    },
  );
}
