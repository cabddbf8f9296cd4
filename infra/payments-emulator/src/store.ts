/**
 * The emulator's state: payment methods, PaymentIntents, charges, refunds, events and their
 * deliveries, idempotent replays and the clock's offset. Kept in memory; with a data file it is
 * loaded at start and written atomically (tmp + rename), debounced, and flushed on close.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A Stripe object as JSON (what the API answers). */
export type Obj = Record<string, unknown> & { id: string; object: string; created: number };

/** How a test card ends when charged. */
export type CardOutcome = 'succeeds' | 'generic_decline' | 'insufficient_funds';

export interface StoredPaymentMethod {
  obj: Obj;
  outcome: CardOutcome;
  /** The PaymentIntent it authorised: a payment method with no customer serves one only. */
  usedBy?: string;
}

export interface StoredIntent {
  obj: Obj;
  /** The secret key it was created with: lists and ids are per key, like Stripe accounts. */
  account: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  /** Only events of objects made with this secret key; absent = every event. */
  apiKey?: string;
  /** Event types, or ['*']. */
  enabledEvents: string[];
  /** Set by the start options (not the control API): replaced by the next start's options. */
  fromOptions?: boolean;
}

export interface StoredEvent {
  obj: Obj;
  account: string;
}

/** One event still to reach one endpoint. */
export interface Delivery {
  eventId: string;
  endpointId: string;
  attempts: number;
  /** Real time (ms) of the next attempt. */
  nextAt: number;
  lastError?: string;
}

export interface Replay {
  /** What the first request was (method, path, params), to refuse the key for another. */
  request: string;
  status: number;
  body: unknown;
  /** Emulator time (s): replays are kept 24 h, as Stripe's. */
  at: number;
}

export interface PaymentsState {
  paymentMethods: Record<string, StoredPaymentMethod>;
  intents: Record<string, StoredIntent>;
  charges: Record<string, Obj>;
  refunds: Record<string, Obj>;
  events: Record<string, StoredEvent>;
  deliveries: Delivery[];
  /** Delivered or given-up deliveries, newest last (bounded), for the control API. */
  delivered: (Delivery & { status: 'delivered' | 'failed'; at: number })[];
  webhookEndpoints: Record<string, WebhookEndpoint>;
  /** `${account} ${idempotency key}` → the first answer. */
  replays: Record<string, Replay>;
  /** Added to the real clock (the control API moves time forward). */
  clockOffsetMs: number;
}

/** Stripe-like ids: prefix + 24 random characters. */
export const newId = (prefix: string) =>
  `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;

const empty = (): PaymentsState => ({
  paymentMethods: {},
  intents: {},
  charges: {},
  refunds: {},
  events: {},
  deliveries: [],
  delivered: [],
  webhookEndpoints: {},
  replays: {},
  clockOffsetMs: 0,
});

const DAY_S = 86_400;

export class Store {
  state: PaymentsState = empty();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      this.state = { ...this.state, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<PaymentsState>) };
    }
  }

  /** Emulator time in ms (real time plus the control API's offset). */
  nowMs(): number {
    return Date.now() + this.state.clockOffsetMs;
  }

  /** Emulator time in seconds, as Stripe's `created`. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Schedules a write (~100 ms later, one write for a burst of changes). */
  changed(): void {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, 100);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.file) return;
    this.prune();
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.file); // a crash mid-write never leaves half a file
  }

  /** Replays older than 24 h and events older than 30 days are gone at Stripe too. */
  private prune(): void {
    const now = this.now();
    for (const [k, r] of Object.entries(this.state.replays))
      if (r.at < now - DAY_S) delete this.state.replays[k];
    const pending = new Set(this.state.deliveries.map((d) => d.eventId));
    for (const [id, e] of Object.entries(this.state.events)) {
      if (e.obj.created < now - 30 * DAY_S && !pending.has(id)) delete this.state.events[id];
    }
    if (this.state.delivered.length > 1000)
      this.state.delivered.splice(0, this.state.delivered.length - 1000);
  }
}
