/** The emulator's HTML: the read-only payments page at `/`, and the card frame at `/elements`. */
import type { PaymentsState } from './store';

export const escapeHtml = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `body{font:14px system-ui;margin:2em;color:#222}td,th{padding:4px 10px;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}
h2{margin-top:2em}.muted{color:#666}`;

const money = (cents: unknown, currency: unknown) =>
  typeof cents === 'number' ? `${(cents / 100).toFixed(2)} ${String(currency ?? '').toUpperCase()}` : '';
const time = (s: unknown) => (typeof s === 'number' ? new Date(s * 1000).toISOString() : '');

function table(headers: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '<p class="muted">none</p>';
  const th = headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table><tr>${th}</tr>${tr}</table>`;
}

export function paymentsPage(state: PaymentsState, nowSeconds: number): string {
  const intents = Object.values(state.intents)
    .map((i) => i.obj)
    .reverse();
  const refunded = (chargeId: unknown) => state.charges[String(chargeId)]?.amount_refunded;
  const meta = (m: unknown) =>
    Object.entries((m as Record<string, string>) ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
  const endpoints = Object.values(state.webhookEndpoints);
  const recent = [
    ...state.deliveries.map((d) => ({ ...d, status: 'due' })),
    ...state.delivered.slice(-50).reverse(),
  ].slice(0, 50);
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Payments emulator</title><style>${STYLE}</style>
<h1>Payments emulator</h1>
<p class="muted">A local stand-in for Stripe's API (test mode). Emulator clock: ${escapeHtml(time(nowSeconds))}${state.clockOffsetMs ? ` (moved ${escapeHtml(Math.round(state.clockOffsetMs / 1000))} s ahead)` : ''}.</p>
<h2>Payments (${intents.length})</h2>
${table(
  ['Id', 'Amount', 'Status', 'Authorised', 'Captured', 'Refunded', 'Capture', 'Metadata', 'Created'],
  intents.map((pi) => [
    pi.id,
    money(pi.amount, pi.currency),
    pi.cancellation_reason ? `${pi.status} (${pi.cancellation_reason})` : pi.status,
    money(pi.amount_capturable, pi.currency),
    money(pi.amount_received, pi.currency),
    money(refunded(pi.latest_charge) ?? 0, pi.currency),
    pi.capture_method,
    meta(pi.metadata),
    time(pi.created),
  ]),
)}
<h2>Webhook endpoints (${endpoints.length})</h2>
${table(
  ['Id', 'URL', 'Events'],
  endpoints.map((e) => [e.id, e.url, e.enabledEvents.join(', ')]),
)}
<h2>Recent webhook deliveries</h2>
${table(
  ['Event', 'Type', 'Endpoint', 'Status', 'Attempts', 'Last error'],
  recent.map((d) => [
    d.eventId,
    state.events[d.eventId]?.obj.type,
    state.webhookEndpoints[d.endpointId]?.url ?? d.endpointId,
    d.status,
    d.attempts,
    d.lastError,
  ]),
)}
<p class="muted">Read-only. JSON: <code>GET /__emulator/payment-intents</code>, <code>GET /__emulator/events</code>.</p></html>`;
}

/** A JSON value safe inside a <script>. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The card frame (the stand-in for Stripe's Payment Element): card number, expiry and CVC; on submit
 * it makes a payment method with the publishable key and hands its id to the parent window (only at
 * `origin`). The parent may also ask it to submit: `postMessage({ type: 'decor-payment-submit' })`.
 */
export function elementsPage(origin: string, publishableKey: string, nonce: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Card details</title>
<style nonce="${nonce}">body{font:15px system-ui;margin:0;padding:12px;color:#222}
.field{display:flex;flex-direction:column;margin-bottom:10px;flex:1}.row{display:flex;gap:12px}
label{font-weight:600;margin-bottom:4px}input{font:inherit;padding:8px;border:1px solid #888;border-radius:4px}
input[aria-invalid=true]{border-color:#b3261e}#message{min-height:1.3em;margin:6px 0}#message.error{color:#b3261e}
button{font:inherit;padding:8px 16px;border:0;border-radius:4px;background:#1f4f8f;color:#fff;cursor:pointer}
button:disabled{opacity:.6}.muted{color:#555;font-size:13px}</style>
<main>
<form id="card" novalidate aria-label="Card details">
<div class="field"><label for="number">Card number</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required aria-describedby="message"></div>
<div class="row">
<div class="field"><label for="expiry">Expiry date (MM / YY)</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" required aria-describedby="message"></div>
<div class="field"><label for="cvc">Security code (CVC)</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" required aria-describedby="message"></div>
</div>
<p id="message" role="status" aria-live="polite"></p>
<button type="submit" id="use">Use this card</button>
<p class="muted">Payments emulator (test mode). Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds. Any future date, any CVC.</p>
</form>
</main>
<script nonce="${nonce}">
(() => {
  const origin = ${scriptJson(origin)};
  const key = ${scriptJson(publishableKey)};
  const $ = (id) => document.getElementById(id);
  const form = $('card'), number = $('number'), expiry = $('expiry'), cvc = $('cvc'), message = $('message'), button = $('use');
  const fields = { number, exp_month: expiry, exp_year: expiry, cvc };
  const say = (text, error) => { message.textContent = text; message.className = error ? 'error' : ''; };
  const fail = (text, field) => {
    say(text, true);
    for (const input of [number, expiry, cvc]) input.setAttribute('aria-invalid', String(input === field));
    if (field) field.focus();
    window.parent.postMessage({ type: 'decor-payment-error', message: text }, origin);
  };
  let busy = false;
  async function submit() {
    if (busy) return;
    const digits = number.value.replace(/[\\s-]/g, '');
    const [month = '', year = ''] = expiry.value.split('/').map((s) => s.trim());
    if (!digits) return fail('Your card number is incomplete.', number);
    if (!month || !year) return fail("Your card's expiration date is incomplete.", expiry);
    if (!cvc.value.trim()) return fail("Your card's security code is incomplete.", cvc);
    busy = true; button.disabled = true; say('Checking the card…', false);
    try {
      const body = new URLSearchParams({ type: 'card', 'card[number]': digits, 'card[exp_month]': month, 'card[exp_year]': year, 'card[cvc]': cvc.value.trim() });
      const res = await fetch('/v1/payment_methods', { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/x-www-form-urlencoded' }, body });
      const json = await res.json();
      if (!res.ok) return fail((json.error && json.error.message) || 'The card could not be checked.', fields[json.error && json.error.param]);
      for (const input of [number, expiry, cvc]) input.removeAttribute('aria-invalid');
      say('Card ending ' + json.card.last4 + ' is ready.', false);
      window.parent.postMessage({ type: 'decor-payment-method', paymentMethod: json.id, card: { brand: json.card.brand, last4: json.card.last4 } }, origin);
    } catch (err) {
      fail('The payment service did not answer. Try again.');
    } finally { busy = false; button.disabled = false; }
  }
  form.addEventListener('submit', (e) => { e.preventDefault(); submit(); });
  window.addEventListener('message', (e) => { if (e.origin === origin && e.data && e.data.type === 'decor-payment-submit') submit(); });
})();
</script></html>`;
}
