/**
 * Issue 30's crash test: "kill -9 of the service that records acceptances during 50 acceptances:
 * every authorisation ends captured-later or cancelled, none dangling".
 *
 * Before the load, 50 customers each get an estimate of their own, sent to QuickBooks by staff (so
 * it is Open and offered, a deposit due). The fault: the payments emulator made slow (each call waits
 * 1 s, about what Stripe takes to confirm a card), the 50 post their acceptance at once with
 * pm_card_visa, and once half of them are under way (their estimate bears its pending authorisation
 * mark, or its acceptance) every order process is killed with SIGKILL, authorisations still in flight
 * at the provider; the supervisor starts it again. Each customer whose post failed
 * presses Accept again every 1-2 s with the same Idempotency-Key, as the browser does — except every
 * fifth, who closes the tab: what they left behind is the sweeper's (ACCEPTANCE_SWEEP_AFTER_MS, short
 * in the chaos stack). Then, within a bound, the payments emulator's PaymentIntents and the estimates
 * in the order database must agree: each intent either canceled or still authorised
 * (requires_capture) as the deposit of its estimate's recorded acceptance; at most one live intent per
 * estimate; every acceptance's deposit still authorised; no pending mark left; every customer who kept
 * trying answered 201 and accepted; every post answered 201 or 503 (their times are reported, not
 * judged: the load's own requests in the row keep the 5 s bound).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { descendants, runnableProc } from '@decor/cli/procs';
import mongoose, { Types } from 'mongoose';
import type { NpmStartStack } from '../npm-start';
import type { Fault } from './faults';
import { addCustomers, api, STAFF, signIn, until } from './prepare';
import { ANSWER_WITHIN_MS } from './table';

export const ACCEPTANCES_FAULT = 'kill order during acceptances';
/** The order service's ACCEPTANCE_SWEEP_AFTER_MS in the chaos stack (120 s in production). */
export const SWEEP_AFTER_MS = 20_000;
const CUSTOMERS = 50;
/** Every WALK_AWAY-th customer whose post failed does not try again. */
const WALK_AWAY = 5;
/** The kill comes once this many acceptances are under way at the provider or recorded … */
const KILL_WHEN_UNDER_WAY = CUSTOMERS / 2;
/** … or after this long, whichever is first. */
const KILL_AFTER_MS = 10_000;
/** Each provider call takes this long (Stripe's confirm of a card takes about as long). */
const PROVIDER_SLOW_MS = 1_000;
/** A customer presses Accept again 1-2 s after a failed try. */
const RETRY_EVERY_MS = 1_000;
const RETRY_FOR_MS = 120_000;
/** After the last retry: the sweeper's age, two of its rounds, and room for a loaded machine. */
const SETTLE_MS = SWEEP_AFTER_MS + 40_000;
/** A 1×1 PNG: the drawn signature. */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A PaymentIntent as the emulator lists it (the fields the verdict reads). */
export interface IntentSeen {
  id: string;
  status: string;
  estimateId: string;
}

/** An estimate as the order database holds it (the fields the verdict reads). */
export interface EstimateSeen {
  id: string;
  accepted: boolean;
  depositIntentId: string | null;
  pendingMarks: number;
}

export interface AcceptanceProblem {
  kind:
    | 'dangling'
    | 'neither held nor cancelled'
    | 'two live authorisations'
    | 'accepted, deposit not held'
    | 'accepted without a deposit'
    | 'pending mark left'
    | 'answered 201, not accepted';
  detail: string;
}

/**
 * What is wrong, pure: `kept` are the estimates whose customers kept trying until answered (each must
 * be accepted). Empty: every authorisation is held by its acceptance or cancelled, none dangling.
 */
export function acceptanceProblems(
  intents: IntentSeen[],
  estimates: EstimateSeen[],
  kept: ReadonlySet<string>,
): AcceptanceProblem[] {
  const problems: AcceptanceProblem[] = [];
  const byId = new Map(estimates.map((e) => [e.id, e]));
  const live = new Map<string, string[]>();
  for (const pi of intents) {
    if (pi.status === 'canceled') continue;
    live.set(pi.estimateId, [...(live.get(pi.estimateId) ?? []), pi.id]);
    const e = byId.get(pi.estimateId);
    if (pi.status !== 'requires_capture')
      problems.push({
        kind: 'neither held nor cancelled',
        detail: `${pi.id} (estimate ${pi.estimateId}) is ${pi.status}`,
      });
    else if (!e?.accepted || e.depositIntentId !== pi.id)
      problems.push({
        kind: 'dangling',
        detail: `${pi.id} authorised for estimate ${pi.estimateId}, recorded nowhere`,
      });
  }
  for (const [estimateId, ids] of live)
    if (ids.length > 1)
      problems.push({ kind: 'two live authorisations', detail: `estimate ${estimateId}: ${ids.join(', ')}` });
  const status = new Map(intents.map((pi) => [pi.id, pi.status]));
  for (const e of estimates) {
    if (e.accepted && !e.depositIntentId)
      problems.push({ kind: 'accepted without a deposit', detail: `estimate ${e.id}` });
    if (e.accepted && e.depositIntentId && status.get(e.depositIntentId) !== 'requires_capture')
      problems.push({
        kind: 'accepted, deposit not held',
        detail: `estimate ${e.id}: ${e.depositIntentId} is ${status.get(e.depositIntentId) ?? 'unknown to the provider'}`,
      });
    if (e.pendingMarks > 0)
      problems.push({ kind: 'pending mark left', detail: `estimate ${e.id}: ${e.pendingMarks}` });
    if (kept.has(e.id) && !e.accepted)
      problems.push({ kind: 'answered 201, not accepted', detail: `estimate ${e.id}` });
  }
  return problems;
}

/** "dangling ×2 (pi_a authorised for …); pending mark left ×1 (…)": each kind once, with its first case. */
export function describeProblems(problems: AcceptanceProblem[]): string[] {
  const kinds = new Map<string, AcceptanceProblem[]>();
  for (const p of problems) kinds.set(p.kind, [...(kinds.get(p.kind) ?? []), p]);
  return [...kinds].map(([kind, list]) => `${kind} ×${list.length} (e.g. ${list[0]?.detail})`);
}

interface Customer {
  email: string;
  token: string;
  estimateId: string;
  version: string;
}

interface Post {
  status?: number;
  failure?: 'refused' | 'none';
  ms: number;
  /** When the answer came (performance.now()). */
  at: number;
}

async function post(stack: NpmStartStack, c: Customer, index: number): Promise<Post> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${stack.gatewayUrl}/api/estimate/${c.estimateId}/acceptance`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${c.token}`,
        'content-type': 'application/json',
        'idempotency-key': `chaos-accept-${index}`,
      },
      body: JSON.stringify({
        estimateVersion: c.version,
        signerName: `Chaos Customer ${index}`,
        signature: SIGNATURE,
        agree: true,
        paymentMethod: 'pm_card_visa',
      }),
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0, at: performance.now() };
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    return {
      failure: code === 'ECONNREFUSED' ? 'refused' : 'none',
      ms: performance.now() - t0,
      at: performance.now(),
    };
  }
}

const label = (p: Post) => (p.status ? String(p.status) : p.failure === 'refused' ? 'refused' : 'no answer');
const counts = (posts: Post[]) => {
  const seen = new Map<string, number>();
  for (const p of posts) seen.set(label(p), (seen.get(label(p)) ?? 0) + 1);
  return [...seen].map(([s, n]) => `${s}×${n}`).join(', ') || '–';
};
/** Answered, and worth trying again as a browser would (the service restarting). */
const tryAgain = (p: Post) => !p.status || p.status >= 500 || p.status === 429;

async function control(stack: NpmStartStack, path: string, json?: unknown) {
  const res = await fetch(`${stack.paymentsUrl}/__emulator${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`payments emulator ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A customer's session: signed in at the user service itself (the gateway allows 30 sign-ins a minute per address). */
async function serviceSignIn(stack: NpmStartStack, email: string, password: string): Promise<string> {
  const user = stack.processes.find((p) => p.name === 'user' && p.entry === 'main');
  if (!user) throw new Error('no user service in the stack');
  return until(`the sign-in of ${email}`, 60_000, async () => {
    const res = await fetch(`http://127.0.0.1:${user.port}/auth/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status === 200 ? (res.headers.get('token') ?? undefined) : undefined;
  });
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T, i: number) => Promise<R>) {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => fn(item, i + j)))));
  return out;
}

/** 50 customers, each with an Open estimate offered for acceptance (a deposit due). */
async function openEstimates(stack: NpmStartStack, log: (line: string) => void): Promise<Customer[]> {
  const staff = await signIn(stack, STAFF.email, STAFF.password);
  // The product in stock with the most units; each estimate on a day of its own, clear of the load's.
  const productId = await until('a priced product in stock', 60_000, async () => {
    const res = await api(stack, '/product?gt=quantity:1&limit=100', { token: staff });
    const priced = ((res.body?.result ?? []) as Array<{ id: string; price: number; quantity: number }>)
      .filter((p) => p.price > 0)
      .sort((a, b) => b.quantity - a.quantity);
    return priced[0]?.id;
  });
  const accounts = await addCustomers(stack, CUSTOMERS, 'accept-');
  log(`chaos: ${CUSTOMERS} customers for the acceptances added; each submits an estimate …`);
  const firstDay = Date.now() + 800 * 86_400_000;
  const submitted = await inBatches(accounts, 10, async (a, i) => {
    const token = await serviceSignIn(stack, a.email, a.password);
    const cartId: string = await until(`${a.email}'s first cart`, 90_000, async () => {
      return (await api(stack, '/auth/jwt', { token })).body?.result?.cart?.id;
    });
    await until(`${a.email}'s cart line`, 60_000, async () => {
      const res = await api(stack, `/cart/${cartId}/cartProduct/${encodeURIComponent(productId)}`, {
        method: 'POST',
        token,
        json: { qty: 1 },
      });
      return res.status === 200 ? true : undefined;
    });
    const estimateId: string = await until(`${a.email}'s estimate`, 60_000, async () => {
      const res = await fetch(`${stack.gatewayUrl}/api/estimate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': `chaos-accept-${cartId}`,
        },
        body: JSON.stringify({
          CartId: cartId,
          status: 'Pending',
          groupName: `Chaos acceptance ${i}`,
          eventDate: new Date(firstDay + 3 * i * 86_400_000).toISOString().slice(0, 10),
          location: 'Chaos Hall',
        }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json().catch(() => undefined)) as { result?: { id?: string } } | undefined;
      if (res.status >= 400 && res.status < 500 && res.status !== 429)
        throw new Error(`submitting ${a.email}'s cart answered ${res.status} ${JSON.stringify(body)}`);
      return res.status < 300 ? body?.result?.id : undefined;
    });
    return { email: a.email, token, estimateId };
  });
  log(`chaos: staff send the ${CUSTOMERS} estimates to QuickBooks …`);
  await inBatches(submitted, 10, (s) =>
    until(`the send of ${s.estimateId}`, 120_000, async () => {
      const res = await api(stack, '/qbo/estimate', {
        method: 'POST',
        token: staff,
        json: { id: s.estimateId },
      });
      // 404: accounting-sync has not heard of the estimate yet; a 409 "already in Quick Books" was taken.
      const taken =
        res.status === 200 ||
        res.status === 202 ||
        (res.status === 409 && /already in Quick ?Books/i.test(String(res.body?.message)));
      return taken ? true : undefined;
    }),
  );
  const customers = await inBatches(submitted, 10, (s) =>
    until(`estimate ${s.estimateId} Open and offered`, 180_000, async () => {
      const res = await api(stack, `/estimate/${s.estimateId}/acceptance`, { token: s.token });
      const view = res.body?.result;
      if (view?.state !== 'awaiting') return undefined;
      if (!view.cardRequired)
        throw new Error(`estimate ${s.estimateId} asks no deposit: nothing to authorise`);
      return { ...s, version: String(view.estimateVersion) };
    }),
  );
  log(`chaos: ${CUSTOMERS} estimates Open, each awaiting its acceptance with a deposit`);
  return customers;
}

async function intentsOf(stack: NpmStartStack, ids: ReadonlySet<string>): Promise<IntentSeen[]> {
  const all = (await control(stack, '/payment-intents')) as Array<{
    id: string;
    status: string;
    metadata?: { estimateId?: string };
  }>;
  return all.flatMap((pi) =>
    pi.metadata?.estimateId && ids.has(pi.metadata.estimateId)
      ? [{ id: pi.id, status: pi.status, estimateId: pi.metadata.estimateId }]
      : [],
  );
}

async function estimatesOf(conn: mongoose.Connection, ids: string[]): Promise<EstimateSeen[]> {
  const docs = await conn
    .useDb('order')
    .collection('estimates')
    .find(
      { _id: { $in: ids.map((id) => new Types.ObjectId(id)) } },
      { projection: { 'acceptance.at': 1, deposit: 1, pendingAuthorisations: 1 } },
    )
    .toArray();
  return docs.map((d) => ({
    id: d._id.toString(),
    accepted: Boolean(d.acceptance),
    depositIntentId: (d.deposit?.intentId as string | null | undefined) ?? null,
    pendingMarks: ((d.pendingAuthorisations as unknown[] | undefined) ?? []).length,
  }));
}

export function killOrderDuringAcceptances(): Fault {
  let customers: Customer[] = [];
  let summary: string | undefined;
  return {
    name: ACCEPTANCES_FAULT,
    kind: 'kill',
    refusalsAllowed: false,
    prepare: async (stack, log) => {
      customers = await openEstimates(stack, log);
    },
    summary: () => summary,
    begin: async (stack) => {
      if (customers.length !== CUSTOMERS) throw new Error('the estimates to accept were not prepared');
      const order = stack.processes.filter((p) => p.dir === 'services/order' && p.entry === 'main');
      const ids = new Set(customers.map((c) => c.estimateId));
      const conn = await mongoose
        .createConnection(stack.mongoUrl, { serverSelectionTimeoutMS: 10_000 })
        .asPromise();
      const scenario = (async () => {
        await control(stack, '/faults', { slowMs: PROVIDER_SLOW_MS, forSeconds: 10 });
        const fired = performance.now();
        let killedAt = 0;
        let underWayAtKill = 0;
        const kill = () => {
          if (killedAt) return;
          killedAt = performance.now();
          for (const o of order)
            for (const p of descendants(stack.startPid).filter(runnableProc(o.dir, 'main')))
              process.kill(p.pid, 'SIGKILL');
        };
        // Under way: the estimate bears its pending mark (its authorisation asked of the provider, or
        // about to be) or its acceptance; the kill then finds many authorisations in flight.
        const watch = (async () => {
          while (!killedAt && performance.now() - fired < KILL_AFTER_MS) {
            const seen = await estimatesOf(conn, [...ids]).catch(() => []);
            underWayAtKill = seen.filter((e) => e.pendingMarks > 0 || e.accepted).length;
            if (underWayAtKill >= KILL_WHEN_UNDER_WAY) break;
            await sleep(50);
          }
          kill();
        })();
        const first = await Promise.all(customers.map((c, i) => post(stack, c, i)));
        await watch;
        // What the dead process left: once the provider finished the calls in flight, the
        // authorisations made and recorded nowhere (else the kill came too early or too late to test).
        await sleep(Math.max(0, killedAt + PROVIDER_SLOW_MS + 1_500 - performance.now()));
        const left = acceptanceProblems(
          await intentsOf(stack, ids),
          await estimatesOf(conn, [...ids]),
          new Set(),
        ).filter((p) => p.kind === 'dangling').length;
        const before = first.filter((p) => p.status === 201).length;
        // The rest press Accept again (same key) every 1-2 s; every fifth closes the tab instead.
        const walkedAway = new Set<number>();
        const retries: Post[] = [];
        const finals = await Promise.all(
          customers.map(async (c, i) => {
            let last = first[i] as Post;
            if (!tryAgain(last)) return last;
            if (i % WALK_AWAY === WALK_AWAY - 1) {
              walkedAway.add(i);
              return last;
            }
            const deadline = Date.now() + RETRY_FOR_MS;
            while (tryAgain(last) && Date.now() < deadline) {
              await sleep(RETRY_EVERY_MS + Math.random() * RETRY_EVERY_MS);
              last = await post(stack, c, i);
              retries.push(last);
            }
            return last;
          }),
        );
        const retriesDone = performance.now();
        const kept = new Set(customers.flatMap((c, i) => (walkedAway.has(i) ? [] : [c.estimateId])));
        const problems: string[] =
          left === 0 ? ['the kill left no authorisation unrecorded: nothing was tested'] : [];
        finals.forEach((p, i) => {
          if (!walkedAway.has(i) && p.status !== 201)
            problems.push(`customer ${i}'s acceptance ended ${label(p)} (not 201)`);
        });
        // Every post answered 201 or 503 (the service restarting). How long the answers took is said,
        // not judged: forty retries landing at once on a process just started measure the machine.
        const posts = [...first, ...retries];
        const unanswered = posts.filter((p) => p.status !== 201 && p.status !== 503);
        if (unanswered.length > 0)
          problems.push(
            `${unanswered.length} acceptance posts answered neither 201 nor 503 (${counts(unanswered)})`,
          );
        const late = posts.filter((p) => p.ms > ANSWER_WITHIN_MS);
        const back = retries.filter((p) => p.status === 201).reduce((t, p) => Math.min(t, p.at), Infinity);
        // Until the provider and the order database agree (the sweeper's rounds included), or the bound.
        const settleBy = Date.now() + SETTLE_MS;
        let intents: IntentSeen[] = [];
        let wrong: AcceptanceProblem[] = [];
        for (;;) {
          intents = await intentsOf(stack, ids);
          wrong = acceptanceProblems(intents, await estimatesOf(conn, [...ids]), kept);
          if (wrong.length === 0 || Date.now() > settleBy) break;
          await sleep(2_000);
        }
        const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        const cancelled = intents.filter((pi) => pi.status === 'canceled').length;
        summary =
          `${CUSTOMERS} acceptances, order killed ${s(killedAt - fired)} after the posts (${underWayAtKill} under way or recorded), leaving ${left} authorisations unrecorded: ${before} × 201 before, ` +
          `first answers ${counts(first)} (slowest ${s(Math.max(...first.map((p) => p.ms)))}); ` +
          `${retries.length} retries (${counts(retries)}), the first 201 ${Number.isFinite(back) ? `${s(back - killedAt)} after the kill` : 'never'} → ` +
          `${finals.filter((p) => p.status === 201).length} × 201 in all, ${walkedAway.size} walked away; ` +
          `${intents.length} authorisations: ${intents.length - cancelled} held by their acceptance, ${cancelled} cancelled; ` +
          `${wrong.length === 0 ? 'settled' : 'NOT settled'} ${s(performance.now() - retriesDone)} after the last retry; ` +
          `${late.length} posts answered after ${ANSWER_WITHIN_MS / 1000} s${late.length ? ` (${counts(late)}, slowest ${s(Math.max(...late.map((p) => p.ms)))})` : ''}`;
        problems.push(...describeProblems(wrong));
        if (problems.length > 0) throw new Error(problems.join('; '));
      })();
      scenario.catch(() => undefined); // read by the end below
      return async () => {
        try {
          await scenario;
        } finally {
          await conn.close().catch(() => undefined);
        }
      };
    },
  };
}
