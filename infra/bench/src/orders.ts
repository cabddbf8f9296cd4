/**
 * Orders list and live order status (`--only orders`), through the gateway of the bench stack:
 *
 * 1. List: 10,000 estimates (statuses Pending/Open/Closed/Voided in turn, 50 customers) inserted
 *    straight into the order service's Mongo database in the shape of
 *    services/order/src/store/estimate-model.ts (no outbox events), their DocNumbers reserved from the
 *    service's own counter (1001..11000 on a fresh stack; after those of earlier parts' checkouts
 *    otherwise); then, as staff, a fixed number of sequential
 *    `GET /api/estimate?like=DocNumber:10&limit=20` and `?status=Open&limit=20` after a warm-up;
 *    p50/p95 and req/s (= requests / seconds, one at a time). The answers' total_count and rows are
 *    checked against what the database then holds (other parts' estimates included).
 * 2. Live update latency: one customer's stream (ticket from `POST /api/orders/events/ticket`, then
 *    `GET /api/orders/events?ticket=…`); N EstimateStatusChanged events for that customer's orders
 *    published on the run's order topic at a steady rate (as gateway/test/order-stream tests do);
 *    per event, from just before the publish to its `order` event read on the stream.
 * 3. Held streams: 500 streams (50 staff, 450 customers, Bearer session) on the one gateway; the
 *    gateway process's RSS (/proc/<pid>/status VmRSS) before and after; then one change per customer
 *    is published and every customer stream must get its own change, every staff stream all of them.
 *
 * The stream clients run in the bench process on the same cores, so the latencies include their reading.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EstimateStatusChanged } from '@decor/contracts';
import { createKafka, createPublisher, newEvent, publishEnvelopes } from '@decor/kit';
import mongoose from 'mongoose';
import { answersCell, ordersProblems } from './answers';
import { type Machine, machineCell } from './report';
import { resultsSection } from './results-section';
import { cpuMeter, formatCores, percentile, processRoles } from './stats';

export interface OrdersStack {
  runId: string;
  gatewayUrl: string;
  /** Its internal port, where /metrics answers. */
  gatewayInternalUrl: string;
  /** The order service itself: the list without the gateway (the breakdown). */
  orderUrl?: string;
  kafkaBrokers: string[];
  jwtSecret: string;
  /** The order service's database. */
  orderDb: { url: string; db: string };
  pids: Record<string, number>;
}

export interface OrdersOptions {
  estimates: number;
  customers: number;
  /** Measured requests per list query (after `requests / 10` unmeasured ones). */
  requests: number;
  /** Changes on the one customer's stream, and their rate per second. */
  changes: number;
  rate: number;
  /** Streams held at once (a tenth of them staff). */
  streams: number;
}

export interface ListFigures {
  query: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  reqPerSecond: number;
  totalCount: number;
  expected: number;
  rowsOk: boolean;
}

/**
 * Where a list request's time goes (issue 31), p50 / p95 ms of sequential calls: the page query and
 * the count as the order service sends them (from this process, straight to Mongo), the order
 * service's whole answer (both, the rows' views, JSON) without the gateway, and through the gateway
 * (the measured list).
 */
export interface Breakdown {
  query: string;
  find: { p50: number; p95: number };
  count: { p50: number; p95: number };
  service: { p50: number; p95: number };
  gateway: { p50: number; p95: number };
}

export interface OrdersFigures {
  estimates: number;
  insertMs: number;
  lists: ListFigures[];
  breakdown: Breakdown[];
  live: { changes: number; rate: number; received: number; p50: number; p99: number; max: number };
  held: {
    streams: number;
    staff: number;
    openMs: number;
    rssBeforeMb: number;
    rssAfterMb: number;
    /** V8 heap used (the gateway's /metrics nodejs_heap_size_used_bytes), MB. */
    heapBeforeMb: number;
    heapAfterMb: number;
    perStreamKb: number;
    changes: number;
    /** Customer streams that got exactly their own change; staff streams that got all of them. */
    customersOk: number;
    staffOk: number;
    p50ToAll: number;
    p99ToAll: number;
  };
  /** 1-minute load average before each part, and the cores used (others: the rest of the machine). */
  load: { list: number; live: number; held: number };
  cores: Record<string, number>;
}

const STATUSES = ['Pending', 'Open', 'Closed', 'Voided'] as const;

/** A session token as the user service signs one (HS256 with the shared secret, @fastify/jwt's claims). */
export function sessionToken(secret: string, id: string, permissions: 'admin' | 'customer'): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({
    sub: id,
    permissions,
    email: `bench-${permissions}-${id}@decor.example`,
    // The kit's issuer and session audience (AUDIENCES.session), which every check requires.
    iss: 'decor',
    aud: 'decor-session',
    iat: now,
    exp: now + 3600,
  })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

const newId = () => randomBytes(12).toString('hex');

/** services/order's DOC_NUMBER_BASE and counter: DocNumber = 1000 + the counter's value. */
const DOC_NUMBER_BASE = 1000;
const DOC_NUMBER_COUNTER = 'estimateDocNumber';

export interface Inserted {
  ms: number;
  /** The inserted estimates' DocNumbers, in order. */
  docNumbers: string[];
  /** Estimates now in the database whose DocNumber starts with '10', and Open ones (all parts' estimates). */
  withPrefix10: number;
  open: number;
}

/**
 * Inserts n estimates. Their DocNumbers are taken from the order service's counter in one step (as n
 * submissions would), so estimates that earlier parts submitted (the checkouts: 1001, 1002, …) keep
 * theirs and later submissions get numbers after these.
 */
export async function insertEstimates(
  orderDb: OrdersStack['orderDb'],
  n: number,
  customers: string[],
): Promise<Inserted> {
  const connection = await mongoose.createConnection(orderDb.url, { dbName: orderDb.db }).asPromise();
  try {
    const estimates = connection.collection('estimates');
    const counter = await connection
      .collection<{ _id: string; seq: number }>('counters')
      .findOneAndUpdate(
        { _id: DOC_NUMBER_COUNTER },
        { $inc: { seq: n } },
        { upsert: true, returnDocument: 'after' },
      );
    const first = DOC_NUMBER_BASE + (counter?.seq ?? n) - n + 1;
    const docNumbers = Array.from({ length: n }, (_, i) => String(first + i));
    const t0 = Date.now();
    const base = Date.now() - n * 60_000;
    for (let from = 0; from < n; from += 1000) {
      const docs = Array.from({ length: Math.min(1000, n - from) }, (_, j) => {
        const i = from + j;
        const userId = customers[i % customers.length] as string;
        const at = new Date(base + i * 60_000);
        const status = STATUSES[i % STATUSES.length] as string;
        return {
          _id: new mongoose.Types.ObjectId(),
          docNumber: docNumbers[i],
          userId,
          cartId: newId(),
          status,
          hasBeenModified: false,
          hasInvoice: false,
          isInQbo: status !== 'Pending',
          qboId: status === 'Pending' ? null : String(5000 + i),
          syncToken: status === 'Pending' ? null : '0',
          details: { jobName: `Bench job ${i + 1}`, city: 'Austin', state: 'TX' },
          lines: [
            {
              productId: newId(),
              name: 'Bench bar front',
              description: '',
              qty: 2,
              priceCents: 12_500,
              totalCents: 25_000,
              qboId: null,
            },
          ],
          subtotalCents: 25_000,
          truckingCents: 5_000,
          taxCents: 2_063,
          totalCents: 32_063,
          customer: {
            email: `bench-customer-${userId}@decor.example`,
            displayName: `Bench Customer ${(i % customers.length) + 1}`,
            ownCompany: null,
            qboId: null,
          },
          revision: 1,
          editedRevision: 0,
          outbox: [],
          outboxLeaseUntil: null,
          outboxLeaseOwner: null,
          createdAt: at,
          updatedAt: at,
        };
      });
      await estimates.insertMany(docs, { ordered: false });
    }
    const ms = Date.now() - t0;
    // What the lists must find, read plainly here, not through the service's queries.
    const withPrefix10 = await estimates.countDocuments({ docNumber: /^10/ });
    const open = await estimates.countDocuments({ status: 'Open' });
    return { ms, docNumbers, withPrefix10, open };
  } finally {
    await connection.close();
  }
}

interface ListAnswer {
  result: Array<{ docNumber?: string; DocNumber?: string; status?: string; Status?: string }>;
  /** From the total_count header. */
  total_count: number;
}

async function measureList(
  url: string,
  token: string,
  requests: number,
  check: (a: ListAnswer) => { expected: number; rowsOk: boolean },
  query: string,
): Promise<ListFigures> {
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
    // The list's total is in the total_count header (services/kit/src/mongo/list.ts).
    const answer = JSON.parse(text) as ListAnswer;
    answer.total_count = Number(res.headers.get('total_count'));
    return { ms, answer };
  };
  for (let i = 0; i < Math.max(10, Math.round(requests / 10)); i++) await once();
  const times: number[] = [];
  let last: ListAnswer | undefined;
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) {
    const { ms, answer } = await once();
    times.push(ms);
    last = answer;
  }
  const seconds = (performance.now() - t0) / 1000;
  const { expected, rowsOk } = check(last as ListAnswer);
  return {
    query,
    requests,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    reqPerSecond: requests / seconds,
    totalCount: (last as ListAnswer).total_count,
    expected,
    rowsOk,
  };
}

// ---- a small Server-Sent Events reader (only what the measurement needs) ----

interface Stream {
  status: number;
  /** `order` events: the changed order's id and when it was read. */
  orders: Array<{ id: string; at: number }>;
  ready: Promise<void>;
  close(): void;
}

async function openStream(url: string, headers: Record<string, string> = {}): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const stream: Stream = { status: res.status, orders: [], ready, close: () => controller.abort() };
  if (res.status !== 200) {
    throw new Error(`GET ${url.replace(/ticket=[^&]+/, 'ticket=…')}: ${res.status} ${await res.text()}`);
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const at = Date.now();
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data += line.slice(5).replace(/^ /, '');
          }
          if (event === 'ready') markReady();
          else if (event === 'order') stream.orders.push({ id: (JSON.parse(data) as { id: string }).id, at });
        }
      }
    } catch {
      // closed
    }
  })();
  return stream;
}

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1]) / 1024;
}

async function heapMb(gatewayInternalUrl: string): Promise<number> {
  const text = await (await fetch(`${gatewayInternalUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => /^nodejs_heap_size_used_bytes[ {]/.test(l));
  return Number(line?.split(' ').at(-1)) / 2 ** 20;
}

function statusChange(n: number, owner: string) {
  const id = newId();
  return {
    id,
    event: newEvent(EstimateStatusChanged, {
      aggregateId: id,
      correlationId: randomUUID(),
      payload: {
        order: {
          orderType: 'estimate',
          id,
          docNumber: String(20_001 + n),
          userId: owner,
          cartId: newId(),
          status: 'Open',
          hasBeenModified: false,
          isInQbo: true,
          qboId: String(n),
          customer: { email: 'bench@decor.example', displayName: 'Bench' },
          details: {},
          lines: [],
          subtotalCents: 0,
          truckingCents: 0,
          taxCents: 0,
          totalCents: 0,
          revision: 1,
        },
        from: 'Pending',
        actor: { role: 'staff', userId: null },
      },
    }),
  };
}

/** The list queries of measureOrders as the order service sends them (store/orders.ts, the kit's toMongoList). */
const LIST_QUERIES: Record<string, Record<string, unknown>> = {
  'like=DocNumber:10&limit=20': { docNumber: { $regex: '^10' } },
  'status=Open&limit=20': { status: 'Open' },
};
const HIDDEN = { outbox: 0, outboxLeaseUntil: 0, outboxLeaseOwner: 0, idempotencyScope: 0 };

async function timed(n: number, call: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.max(5, Math.round(n / 10)); i++) await call();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Where each list's time goes: Mongo's page query and count, the order service, the gateway. */
async function measureBreakdown(
  stack: OrdersStack,
  staff: string,
  lists: ListFigures[],
  requests: number,
): Promise<Breakdown[]> {
  const connection = await mongoose
    .createConnection(stack.orderDb.url, { dbName: stack.orderDb.db })
    .asPromise();
  try {
    const estimates = connection.collection('estimates');
    const n = Math.max(20, Math.round(requests / 3));
    const out: Breakdown[] = [];
    for (const list of lists) {
      const filter = LIST_QUERIES[list.query];
      if (!filter) continue;
      const find = await timed(n, () =>
        estimates.find(filter, { projection: HIDDEN, sort: { createdAt: -1, _id: -1 }, limit: 20 }).toArray(),
      );
      const count = await timed(n, () => estimates.countDocuments(filter));
      const service = stack.orderUrl
        ? await timed(n, async () => {
            const res = await fetch(`${stack.orderUrl}/estimate?${list.query}`, {
              headers: { authorization: `Bearer ${staff}` },
            });
            if (res.status !== 200) throw new Error(`order service list: ${res.status}`);
            await res.text();
          })
        : { p50: Number.NaN, p95: Number.NaN };
      out.push({ query: list.query, find, count, service, gateway: { p50: list.p50, p95: list.p95 } });
    }
    return out;
  } finally {
    await connection.close();
  }
}

function formatBreakdown(b: Breakdown): string {
  const pair = (t: { p50: number; p95: number }) => `${r1(t.p50)} / ${r1(t.p95)}`;
  return `  where ${b.query}'s time goes, p50 / p95 ms: Mongo page query ${pair(b.find)}, Mongo count ${pair(b.count)}, order service (both + views + JSON) ${pair(b.service)}, through the gateway ${pair(b.gateway)}`;
}

export async function measureOrders(
  stack: OrdersStack,
  opts: OrdersOptions,
  log: (line: string) => void,
): Promise<OrdersFigures> {
  const gw = stack.gatewayUrl;
  const meter = cpuMeter(processRoles(stack.pids));
  const customers = Array.from({ length: opts.customers }, newId);
  const staff = sessionToken(stack.jwtSecret, newId(), 'admin');

  // 1. The list.
  const loadList = os.loadavg()[0] ?? 0;
  log(`orders: inserting ${opts.estimates.toLocaleString('en-US')} estimates into ${stack.orderDb.db} …`);
  const {
    ms: insertMs,
    docNumbers,
    withPrefix10: withPrefix,
    open,
  } = await insertEstimates(stack.orderDb, opts.estimates, customers);
  log(`  DocNumbers ${docNumbers[0]}..${docNumbers.at(-1)}`);
  log(`  inserted in ${insertMs} ms; ${opts.requests} sequential requests per list query …`);
  const docOf = (r: ListAnswer['result'][number]) => String(r.docNumber ?? r.DocNumber ?? '');
  const statusOf = (r: ListAnswer['result'][number]) => String(r.status ?? r.Status ?? '');
  const lists = [
    await measureList(
      `${gw}/api/estimate?like=DocNumber:10&limit=20`,
      staff,
      opts.requests,
      (a) => ({
        expected: withPrefix,
        rowsOk: a.result.length === 20 && a.result.every((r) => docOf(r).startsWith('10')),
      }),
      'like=DocNumber:10&limit=20',
    ),
    await measureList(
      `${gw}/api/estimate?status=Open&limit=20`,
      staff,
      opts.requests,
      (a) => ({
        expected: open,
        rowsOk: a.result.length === 20 && a.result.every((r) => statusOf(r) === 'Open'),
      }),
      'status=Open&limit=20',
    ),
  ];
  for (const l of lists) log(`  ${formatList(l, opts.estimates)}`);
  const breakdown = await measureBreakdown(stack, staff, lists, opts.requests);
  for (const b of breakdown) log(`  ${formatBreakdown(b)}`);

  const publisher = createPublisher(
    createKafka({ clientId: `${stack.runId}-bench-orders`, brokers: stack.kafkaBrokers }),
  );
  await publisher.connect();
  const streams: Stream[] = [];
  try {
    // 2. One customer's stream, through a ticket as the browser opens it.
    const loadLive = os.loadavg()[0] ?? 0;
    const customer = customers[0] as string;
    const customerToken = sessionToken(stack.jwtSecret, customer, 'customer');
    const ticketRes = await fetch(`${gw}/api/orders/events/ticket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customerToken}` },
    });
    if (ticketRes.status !== 200) throw new Error(`ticket: ${ticketRes.status} ${await ticketRes.text()}`);
    const { ticket } = ((await ticketRes.json()) as { result: { ticket: string } }).result;
    const one = await openStream(`${gw}/api/orders/events?ticket=${encodeURIComponent(ticket)}`);
    streams.push(one);
    await Promise.race([one.ready, sleep(30_000).then(() => Promise.reject(new Error('no ready event')))]);
    log(`  live: ${opts.changes} changes at ${opts.rate}/s to one customer's stream …`);
    const sentAt = new Map<string, number>();
    const started = Date.now();
    for (let n = 0; n < opts.changes; n++) {
      const wait = started + (n * 1000) / opts.rate - Date.now();
      if (wait > 0) await sleep(wait);
      const { id, event } = statusChange(n, customer);
      sentAt.set(id, Date.now());
      await publishEnvelopes(publisher.producer, stack.runId, [event]);
    }
    await waitFor(() => one.orders.length >= opts.changes, 30_000, 'the changes on the stream').catch(
      () => {},
    );
    const latencies = one.orders
      .filter((o) => sentAt.has(o.id))
      .map((o) => o.at - (sentAt.get(o.id) as number));
    const live = {
      changes: opts.changes,
      rate: opts.rate,
      received: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
    };
    log(`  ${formatLive(live)}`);
    one.close();
    streams.length = 0;

    // 3. Many streams on one gateway.
    await sleep(2_000);
    const loadHeld = os.loadavg()[0] ?? 0;
    const gatewayPid = stack.pids.gateway as number;
    const rssBeforeMb = rssMb(gatewayPid);
    const heapBeforeMb = await heapMb(stack.gatewayInternalUrl);
    const nStaff = Math.round(opts.streams / 10);
    const holders = Array.from({ length: opts.streams - nStaff }, newId);
    log(`  held: opening ${opts.streams} streams (${nStaff} staff) …`);
    const openedAt = Date.now();
    const byCustomer = new Map<string, Stream>();
    const staffStreams: Stream[] = [];
    for (let i = 0; i < opts.streams; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, opts.streams - i) }, async (_, j) => {
          const n = i + j;
          const holder = holders[n];
          const token = holder
            ? sessionToken(stack.jwtSecret, holder, 'customer')
            : sessionToken(stack.jwtSecret, newId(), 'admin');
          const s = await openStream(`${gw}/api/orders/events`, { authorization: `Bearer ${token}` });
          streams.push(s);
          if (holder) byCustomer.set(holder, s);
          else staffStreams.push(s);
          await s.ready;
        }),
      );
    }
    const openMs = Date.now() - openedAt;
    await sleep(2_000);
    const rssAfterMb = rssMb(gatewayPid);
    const heapAfterMb = await heapMb(stack.gatewayInternalUrl);
    log(`  ${opts.streams} open in ${openMs} ms; one change per customer …`);
    const sent = new Map<string, { owner: string; at: number }>();
    const startedHeld = Date.now();
    for (let n = 0; n < holders.length; n++) {
      const wait = startedHeld + (n * 1000) / 100 - Date.now();
      if (wait > 0) await sleep(wait);
      const owner = holders[n] as string;
      const { id, event } = statusChange(100_000 + n, owner);
      sent.set(id, { owner, at: Date.now() });
      await publishEnvelopes(publisher.producer, stack.runId, [event]);
    }
    await waitFor(
      () => staffStreams.every((s) => s.orders.length >= holders.length),
      60_000,
      'every change on every staff stream',
    ).catch(() => {});
    await sleep(500);
    const customersOk = [...byCustomer].filter(
      ([owner, s]) => s.orders.length === 1 && sent.get((s.orders[0] as { id: string }).id)?.owner === owner,
    ).length;
    const staffOk = staffStreams.filter(
      (s) => new Set(s.orders.map((o) => o.id).filter((id) => sent.has(id))).size === holders.length,
    ).length;
    const arrivals = new Map<string, number>();
    for (const s of streams)
      for (const o of s.orders) arrivals.set(o.id, Math.max(arrivals.get(o.id) ?? 0, o.at));
    const toAll = [...sent].map(([id, { at }]) => (arrivals.get(id) ?? Number.NaN) - at);
    const held = {
      streams: opts.streams,
      staff: nStaff,
      openMs,
      rssBeforeMb,
      rssAfterMb,
      heapBeforeMb,
      heapAfterMb,
      perStreamKb: ((rssAfterMb - rssBeforeMb) * 1024) / opts.streams,
      changes: holders.length,
      customersOk,
      staffOk,
      p50ToAll: percentile(toAll, 50),
      p99ToAll: percentile(toAll, 99),
    };
    log(`  ${formatHeld(held)}`);
    return {
      estimates: opts.estimates,
      insertMs,
      lists,
      breakdown,
      live,
      held,
      load: { list: loadList, live: loadLive, held: loadHeld },
      cores: meter(),
    };
  } finally {
    for (const s of streams) s.close();
    await publisher.disconnect().catch(() => {});
  }
}

const r0 = (n: number) => (Number.isNaN(n) ? '–' : String(Math.round(n)));
const r1 = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(1));

/** Issue 31's targets: list p95 < 50 ms with 10,000 estimates, < 80 ms with 100,000. */
export function listGoalMs(estimates: number): number {
  return estimates > 10_000 ? 80 : 50;
}

function formatList(l: ListFigures, estimates = 10_000): string {
  return `GET /api/estimate?${l.query}: p50 ${r1(l.p50)} ms, p95 ${r1(l.p95)} ms (goal < ${listGoalMs(estimates)}), max ${r1(l.max)} ms, ${r0(l.reqPerSecond)} req/s (one at a time, ${l.requests} requests); total_count ${l.totalCount} (expected ${l.expected}${l.totalCount === l.expected ? ', right' : ', WRONG'}), rows ${l.rowsOk ? 'right' : 'WRONG'}`;
}

function formatLive(v: OrdersFigures['live']): string {
  return `live update, publish → read on the stream: p50 ${r0(v.p50)} ms, p99 ${r0(v.p99)} ms (goal < 1,000), max ${r0(v.max)} ms; ${v.received}/${v.changes} received (${v.rate}/s)`;
}

function formatHeld(h: OrdersFigures['held']): string {
  return `${h.streams} streams (${h.staff} staff) opened in ${h.openMs} ms; gateway RSS ${r1(h.rssBeforeMb)} → ${r1(h.rssAfterMb)} MB (+${r1(h.rssAfterMb - h.rssBeforeMb)} MB, ${r1(h.perStreamKb)} KB per stream), heap used ${r1(h.heapBeforeMb)} → ${r1(h.heapAfterMb)} MB; ${h.changes} changes (one per customer, 100/s): ${h.customersOk}/${h.streams - h.staff} customer streams got exactly their own, ${h.staffOk}/${h.staff} staff streams got all; to the last stream p50 ${r0(h.p50ToAll)} ms, p99 ${r0(h.p99ToAll)} ms`;
}

/** The lines printed at the end of a run. */
export function formatOrders(f: OrdersFigures): string {
  return [
    '',
    `Orders list and live order status — ${f.estimates.toLocaleString('en-US')} estimates inserted in ${f.insertMs} ms; 1-min load before each part ${f.load.list.toFixed(2)} / ${f.load.live.toFixed(2)} / ${f.load.held.toFixed(2)}`,
    ...f.lists.map((l) => `  ${formatList(l, f.estimates)}`),
    ...f.breakdown.map((b) => `  ${formatBreakdown(b)}`),
    `  ${formatLive(f.live)}`,
    `  ${formatHeld(f.held)}`,
    `  cores used: ${formatCores(f.cores)}`,
  ].join('\n');
}

// ---- infra/bench/bench-results.md: a section of its own, written after every other one ----

const SECTION = '## Orders list and live order status (`--only orders`)';
const KEEP_RUNS = 20;
const HEADER = [
  '| when (UTC) | machine | node | load (1 min) before list / live / held | others busy (cores) | prefix search p50 / p95 ms, req/s | status filter p50 / p95 ms, req/s | total_count right | live update p50 / p99 ms (received) | 500 streams: gateway RSS MB (per stream); heap used MB | change reached (customers / staff) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
// Rows start with the weekday: report.ts keeps rows starting "| 2026-…" as its own, and the
// QuickBooks section keeps rows starting "| 2026-…T".
const ROW = /^\| (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-/;
const METHOD = [
  'Method: `npm run bench -- --only orders [--estimates 100000]` (infra/bench/src/orders.ts). 10,000 estimates',
  '(or `--estimates`; the total_count cell says how many; rows are compared with rows of as many) (DocNumbers',
  "from the order service's counter: 1001..11000 alone, after the checkouts' in a full run; statuses",
  "Pending/Open/Closed/Voided in turn, 50 customers) are inserted into the order service's",
  'database (the shape of services/order/src/store/estimate-model.ts; no events). As staff, through the gateway,',
  '`GET /api/estimate?like=DocNumber:10&limit=20` and `?status=Open&limit=20`: 300 sequential requests each',
  'after 30 unmeasured ones (req/s = one at a time). total_count must be what the database holds (alone: 1,099,',
  "i.e. 1001..1099 and 10000..10999, and 2,500). The run also prints where a list's time goes: the page query and count straight to Mongo, the order service without the gateway. Live update: one customer's stream (ticket + `GET /api/orders/events?ticket=`), 500",
  "EstimateStatusChanged events for that customer on the run's order topic at 50/s; from just before each",
  'publish to its `order` event read on the stream. Held streams: 450 customer + 50 staff streams (Bearer) on',
  'the one gateway, its RSS (/proc VmRSS) and heap used (its /metrics) 2 s after the first stream closed and 2 s',
  'after all 500 opened (RSS per stream = the difference / 500; V8 may hold the memory already); then',
  'one change per customer at 100/s: each customer stream must get exactly its own, each staff stream all 450.',
  'The stream clients and Kafka share the cores with the gateway; the load column is the 1-minute load average.',
].join('\n');

/**
 * Rows are compared with rows of the same number of estimates ("100,000 estimates: …" in the
 * total_count cell; rows before issue 31 had 10,000 and do not say so).
 */
export function ordersKind(cells: string[]): string {
  return cells.map((c) => /([\d,]+) estimates:/.exec(c)?.[1]).find(Boolean) ?? '10,000';
}

export function orderRow(machine: Machine, f: OrdersFigures): string {
  const [prefix, status] = f.lists as [ListFigures, ListFigures];
  const day = new Date(`${machine.date.replace(' ', 'T').replace(/Z$/, ':00Z')}`).toUTCString().slice(0, 3);
  const cells = [
    `${day} ${machine.date}`,
    machineCell(machine),
    machine.node,
    `${f.load.list.toFixed(2)} / ${f.load.live.toFixed(2)} / ${f.load.held.toFixed(2)}`,
    (f.cores.others ?? Number.NaN).toFixed(2),
    `${r1(prefix.p50)} / ${r1(prefix.p95)}, ${r0(prefix.reqPerSecond)}`,
    `${r1(status.p50)} / ${r1(status.p95)}, ${r0(status.reqPerSecond)}`,
    answersCell(
      ordersProblems(f).filter((p) => !p.startsWith('orders streams')),
      `${f.estimates.toLocaleString('en-US')} estimates: ${prefix.totalCount}/${prefix.expected}, ${status.totalCount}/${status.expected}${prefix.rowsOk && status.rowsOk ? '' : ' (rows WRONG)'}`,
    ),
    `${r0(f.live.p50)} / ${r0(f.live.p99)} (${f.live.received}/${f.live.changes})`,
    `${r1(f.held.rssBeforeMb)} → ${r1(f.held.rssAfterMb)} (${r1(f.held.perStreamKb)} KB); heap ${r1(f.held.heapBeforeMb)} → ${r1(f.held.heapAfterMb)}`,
    answersCell(
      ordersProblems(f).filter((p) => p.startsWith('orders streams')),
      `${f.held.customersOk}/${f.held.streams - f.held.staff} / ${f.held.staffOk}/${f.held.staff}`,
    ),
  ];
  return `| ${cells.join(' | ')} |`;
}

const section = resultsSection({ title: SECTION, header: HEADER, row: ROW, method: METHOD, keep: KEEP_RUNS });
export const orderRows = section.rows;
export const writeOrderRows = section.write;
