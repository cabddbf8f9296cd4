/**
 * The steady load through the gateway: customers fill their active cart and submit it as an order
 * request at a fixed rate (an Idempotency-Key per cart, so a retry after a 503 or no answer is the same
 * order), and staff send each accepted estimate to QuickBooks shortly after. Every request is recorded
 * with the phase it was sent in (an answer's class and time); what was accepted and sent is kept for
 * the checks, each under the phase in which the product said yes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiAnswer, type ApiCall, callApi } from '@decor/cli/public-api';
import type { Answer } from './table';

/** Requests wait this long for an answer before counting as 'none' (the bound itself is 5 s). */
const GIVE_UP_MS = 15_000;
/** The causes (undici's and the socket's) of a request to a server that stopped or is stopping. */
const SERVER_WENT_AWAY = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);
const RETRY_MS = 1_000;

export interface Accepted {
  phase: string;
  estimateId: string;
  cartId: string;
  docNumber: string;
  email: string;
}

export interface Sent {
  phase: string;
  estimateId: string;
}

export interface LoadOptions {
  gatewayUrl: string;
  customers: Array<{ email: string; password: string }>;
  staff: { email: string; password: string };
  productId: string;
  /** Orders submitted per minute, all customers together. */
  ordersPerMinute: number;
  log: (line: string) => void;
}

export class Load {
  phase = 'baseline';
  readonly answers: Answer[] = [];
  readonly accepted = new Map<string, Accepted>();
  readonly sent = new Map<string, Sent>();
  /** Submissions refused with a 4xx (the product said no: not an order, and not lost). */
  readonly refusedSubmits: string[] = [];
  private running = true;
  private nextSlot = 0;
  private readonly toSend: Array<{ id: string; notBefore: number }> = [];
  private readonly loops: Promise<void>[] = [];
  private staffToken = '';
  /** Submissions under way: staff wait for them before the drain ends (their estimates are to send). */
  private submitting = 0;

  constructor(private readonly o: LoadOptions) {}

  /** One request through the gateway, recorded; undefined when there was no answer. */
  async call(
    method: string,
    path: string,
    { label, ...call }: Omit<ApiCall, 'method' | 'signal'> & { label?: string } = {},
  ): Promise<ApiAnswer | undefined> {
    const phase = this.phase;
    const what = `${method} ${label ?? path}`;
    const t0 = performance.now();
    try {
      const reply = await callApi(this.o.gatewayUrl, path, {
        ...call,
        method,
        signal: AbortSignal.timeout(GIVE_UP_MS),
      });
      this.answers.push({ phase, what, ms: performance.now() - t0, status: reply.status });
      return reply;
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      // A server going away refuses new connections and drops the idle kept-alive one a request has
      // just been written to (reset, "other side closed"): both are a refusal, which only a fault that
      // stops the gateway allows. A timeout (no answer within GIVE_UP_MS) is 'none' and always fails.
      const failure = code && SERVER_WENT_AWAY.has(code) ? 'refused' : 'none';
      this.answers.push({ phase, what, ms: performance.now() - t0, failure });
      return undefined;
    }
  }

  private async signIn(email: string, password: string): Promise<string> {
    for (;;) {
      const res = await this.call('POST', '/auth/user', { json: { email, password } });
      const token = res?.status === 200 ? res.headers.get('token') : null;
      if (token) return token;
      if (!this.running) throw new Error(`sign-in of ${email} stopped`);
      await sleep(RETRY_MS);
    }
  }

  start(): void {
    this.nextSlot = Date.now();
    // A loop ends by itself; one that fails (a sign-in given up while stopping) is said, not thrown.
    const said = (who: string) => (err: Error) => this.o.log(`${who} stopped: ${err.message}`);
    this.loops.push(...this.o.customers.map((c, i) => this.customer(c, i).catch(said(`customer ${i}`))));
    this.loops.push(this.staffLoop().catch(said('staff')));
  }

  /** Customers stop taking new orders; orders under way and staff's sends finish (up to `drainMs`). */
  async stop(drainMs: number): Promise<void> {
    this.running = false;
    this.phase = 'drain';
    const deadline = Date.now() + drainMs;
    this.drainUntil = deadline;
    await Promise.race([Promise.all(this.loops), sleep(drainMs + 20_000, undefined, { ref: false })]);
  }

  private drainUntil = Number.POSITIVE_INFINITY;

  /** Everything stops at once (a failed run): nothing more is sent. */
  abort(): void {
    this.running = false;
    this.drainUntil = 0;
  }

  /**
   * Orders book their product by date (with a day's turnaround either side): each cart's event is on
   * days of its own, 3 apart, from 4 months ahead (clear of the demo orders of the coming weeks).
   */
  private eventDay(cartId: string): string {
    let day = this.eventDays.get(cartId);
    if (!day) {
      day = new Date(this.firstDay + (120 + 3 * this.eventDays.size) * 86_400_000).toISOString().slice(0, 10);
      this.eventDays.set(cartId, day);
    }
    return day;
  }

  private readonly eventDays = new Map<string, string>();
  private readonly firstDay = Date.now();

  /** The next order slot: one every 60/rate s for all customers together, never saved up. */
  private async slot(): Promise<void> {
    const gap = 60_000 / this.o.ordersPerMinute;
    const at = Math.max(Date.now(), this.nextSlot);
    this.nextSlot = at + gap;
    await sleep(at - Date.now());
  }

  private async customer(c: { email: string; password: string }, index: number): Promise<void> {
    let token = await this.signIn(c.email, c.password);
    const submitted = new Set<string>();
    let n = 0;
    while (this.running) {
      await this.slot();
      if (!this.running) break;
      // The active cart: a new one appears once the cart service heard of the last checkout.
      let cartId: string | undefined;
      while (this.running && !cartId) {
        const me = await this.call('GET', '/auth/jwt', { token });
        if (me?.status === 401) token = await this.signIn(c.email, c.password);
        const id = me?.status === 200 ? (me.body?.result?.cart?.id as string | undefined) : undefined;
        if (id && !submitted.has(id)) cartId = id;
        else await sleep(RETRY_MS);
      }
      if (!cartId) break;
      // Once the cart has a line, the order is under way: it is submitted even while stopping. A cart
      // refused earlier keeps its line (one unit, so the order never asks for more than is in stock).
      let filled = this.eventDays.has(cartId);
      while (!filled && (this.running || Date.now() < this.drainUntil)) {
        const res = await this.call(
          'POST',
          `/cart/${cartId}/cartProduct/${encodeURIComponent(this.o.productId)}`,
          {
            token,
            json: { qty: 1 },
            label: '/api/cart/:id/cartProduct/:productId',
          },
        );
        if (res?.status === 200) {
          filled = true;
          this.eventDay(cartId);
        } else if (res && res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 429) {
          this.o.log(
            `customer ${index}: adding to cart ${cartId} refused: ${res.status} ${JSON.stringify(res.body)}`,
          );
          break; // the next slot tries this cart again
        } else await sleep(RETRY_MS);
      }
      if (!filled) continue;
      n++;
      // A refused cart (4xx) stays active: the next slot fills and submits it again.
      if (await this.submit(token, cartId, c.email, index, n)) submitted.add(cartId);
    }
  }

  private async submit(
    token: string,
    cartId: string,
    email: string,
    index: number,
    n: number,
  ): Promise<boolean> {
    this.submitting++;
    try {
      return await this.submitUntilAnswered(token, cartId, email, index, n);
    } finally {
      this.submitting--;
    }
  }

  private async submitUntilAnswered(
    token: string,
    cartId: string,
    email: string,
    index: number,
    n: number,
  ): Promise<boolean> {
    const eventDate = this.eventDay(cartId);
    for (;;) {
      const res = await this.call('POST', '/estimate', {
        token,
        headers: { 'idempotency-key': `chaos-${cartId}` },
        json: {
          CartId: cartId,
          status: 'Pending',
          groupName: `Chaos ${index}-${n}`,
          eventDate,
          location: 'Chaos Hall',
        },
      });
      if (res && (res.status === 200 || res.status === 201)) {
        const id = String(res.body?.result?.id);
        if (!this.accepted.has(id)) {
          this.accepted.set(id, {
            phase: this.phase,
            estimateId: id,
            cartId,
            docNumber: String(res.body?.result?.DocNumber ?? ''),
            email,
          });
          this.toSend.push({ id, notBefore: Date.now() + 2_000 });
        }
        return true;
      }
      if (res && res.status >= 400 && res.status < 500 && res.status !== 429) {
        this.refusedSubmits.push(`${cartId}: ${res.status} ${JSON.stringify(res.body)}`);
        this.o.log(
          `customer ${index}: submitting cart ${cartId} refused: ${res.status} ${JSON.stringify(res.body)}`,
        );
        return false;
      }
      // 503, no answer: the same order again (same key) — unless the drain is over.
      if (!this.running && Date.now() > this.drainUntil) return false;
      await sleep(RETRY_MS);
    }
  }

  /** Staff send every accepted estimate to QuickBooks, one at a time, retrying until it is taken. */
  private async staffLoop(): Promise<void> {
    this.staffToken = await this.signIn(this.o.staff.email, this.o.staff.password);
    const gap = Math.min(RETRY_MS, 60_000 / this.o.ordersPerMinute / 2);
    for (;;) {
      const now = Date.now();
      if (!this.running && (now > this.drainUntil || (this.toSend.length === 0 && this.submitting === 0)))
        return;
      const i = this.toSend.findIndex((s) => s.notBefore <= now);
      if (i < 0) {
        await sleep(200);
        continue;
      }
      const [next] = this.toSend.splice(i, 1) as [{ id: string; notBefore: number }];
      const res = await this.call('POST', '/qbo/estimate', { token: this.staffToken, json: { id: next.id } });
      const message = String(res?.body?.message ?? '');
      if (
        res &&
        (res.status === 200 ||
          res.status === 202 ||
          (res.status === 409 && /already in Quick ?Books/i.test(message)))
      ) {
        if (!this.sent.has(next.id)) this.sent.set(next.id, { phase: this.phase, estimateId: next.id });
      } else {
        if (res?.status === 401)
          this.staffToken = await this.signIn(this.o.staff.email, this.o.staff.password);
        // 404: accounting-sync has not heard of the estimate yet; 503 or none: try again shortly.
        if (res && res.status >= 400 && res.status < 500 && res.status !== 404 && res.status !== 401)
          this.o.log(`staff: sending ${next.id} answered ${res.status} ${message}`);
        this.toSend.push({ id: next.id, notBefore: Date.now() + RETRY_MS });
      }
      await sleep(gap);
    }
  }

  /** Estimates accepted but not yet taken by QuickBooks' queue (the drain could not send them). */
  unsent(): string[] {
    return this.toSend.map((s) => s.id);
  }
}
