/**
 * Events and their delivery, as Stripe's: each event (`evt_…`, a snapshot of the object) is POSTed
 * as JSON to every endpoint that wants it, signed `Stripe-Signature: t=<unix s>,v1=<HMAC-SHA256 hex
 * of "t.payload" with the endpoint's secret>`; a non-2xx answer or no answer is retried with
 * doubling waits. Deliveries still due survive a restart (they are in the state).
 */
import { createHmac } from 'node:crypto';
import { type EventSink, snapshot } from './context';
import { type Delivery, newId, type Obj, type Store, type WebhookEndpoint } from './store';

/** The API version the emulator's objects follow (the `stripe` 23.1.0 client's). */
export const API_VERSION = '2026-10-28.endive';

export interface RetryPolicy {
  /** Wait before the 2nd attempt; doubles each time (default 1000 ms). */
  baseMs: number;
  /** Longest wait between attempts (default 5 min). */
  maxDelayMs: number;
  /** Attempts before an event is given up on for that endpoint (default 12). */
  maxAttempts: number;
  /** One attempt's time box (default 10 s). */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 1000,
  maxDelayMs: 300_000,
  maxAttempts: 12,
  timeoutMs: 10_000,
};

/** The header value Stripe would send (what `stripe.webhooks.constructEvent` checks). */
export function signature(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class Webhooks implements EventSink {
  private readonly timers = new Map<Delivery, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  /** The API request under way (Stripe's `event.request`); handlers run synchronously. */
  request: { id: string | null; idempotency_key: string | null } = { id: null, idempotency_key: null };

  constructor(
    private readonly store: Store,
    private readonly retry: RetryPolicy,
  ) {
    for (const d of store.state.deliveries) this.schedule(d);
  }

  emit(type: string, object: Obj, account: string): void {
    const endpoints = Object.values(this.store.state.webhookEndpoints).filter((e) => wants(e, type, account));
    const event: Obj = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.store.now(),
      data: { object: snapshot(object) },
      livemode: false,
      pending_webhooks: endpoints.length,
      request: { ...this.request },
      type,
    };
    this.store.state.events[event.id] = { obj: event, account };
    for (const e of endpoints) {
      const d: Delivery = { eventId: event.id, endpointId: e.id, attempts: 0, nextAt: Date.now() };
      this.store.state.deliveries.push(d);
      this.schedule(d);
    }
    this.store.changed();
  }

  private schedule(d: Delivery): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(d);
        const attempt = this.attempt(d).finally(() => this.inFlight.delete(attempt));
        this.inFlight.add(attempt);
      },
      Math.max(0, d.nextAt - Date.now()),
    );
    timer.unref();
    this.timers.set(d, timer);
  }

  private async attempt(d: Delivery): Promise<void> {
    const state = this.store.state;
    const endpoint = state.webhookEndpoints[d.endpointId];
    const event = state.events[d.eventId];
    if (!endpoint || !event) return this.finish(d, 'failed');
    const payload = JSON.stringify(event.obj, null, 2);
    d.attempts++;
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signature(payload, endpoint.secret),
        },
        body: payload,
        signal: AbortSignal.timeout(this.retry.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return this.finish(d, 'delivered');
      d.lastError = `HTTP ${res.status}`;
    } catch (err) {
      d.lastError = (err as Error).message;
    }
    if (this.closed) return; // stays due; the next start delivers it
    if (d.attempts >= this.retry.maxAttempts) return this.finish(d, 'failed');
    d.nextAt = Date.now() + Math.min(this.retry.baseMs * 2 ** (d.attempts - 1), this.retry.maxDelayMs);
    this.store.changed();
    this.schedule(d);
  }

  private finish(d: Delivery, status: 'delivered' | 'failed'): void {
    const state = this.store.state;
    state.deliveries = state.deliveries.filter((x) => x !== d);
    state.delivered.push({ ...d, status, at: Date.now() });
    const event = state.events[d.eventId]?.obj;
    if (event) event.pending_webhooks = state.deliveries.filter((x) => x.eventId === d.eventId).length;
    this.store.changed();
  }

  /** Deliveries under way end (or are left due for the next start); nothing new is sent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}

function wants(e: WebhookEndpoint, type: string, account: string): boolean {
  if (e.apiKey && e.apiKey !== account) return false;
  return e.enabledEvents.includes('*') || e.enabledEvents.includes(type);
}

/** Adds an endpoint (or updates the one with this url); a secret is made when none is given. */
export function upsertEndpoint(
  store: Store,
  spec: { url: string; secret?: string; apiKey?: string; enabledEvents?: string[] },
  fromOptions = false,
): WebhookEndpoint {
  const existing = Object.values(store.state.webhookEndpoints).find(
    (e) => e.url === spec.url && e.apiKey === spec.apiKey,
  );
  const endpoint: WebhookEndpoint = {
    id: existing?.id ?? newId('we'),
    url: spec.url,
    secret: spec.secret ?? existing?.secret ?? newId('whsec'),
    ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
    enabledEvents: spec.enabledEvents?.length ? spec.enabledEvents : ['*'],
    ...(fromOptions ? { fromOptions } : {}),
  };
  store.state.webhookEndpoints[endpoint.id] = endpoint;
  store.changed();
  return endpoint;
}
