/**
 * `npm run bench -- --only availability` (issue 15):
 * - the race: 200 customers submit at once for a product with 10 units on one date — exactly 10
 *   booked, 0 oversold, every refusal 409; latency p50/p99 (goal p99 < 1 s);
 * - reads with 100,000 bookings in the store: a 40-product inventory page's date check through the
 *   gateway (goal p95 < 30 ms) and the staff month calendar of 60 products (goal p95 < 150 ms);
 * - write amplification: documents written per booked line.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { type ApiAnswer, callApi } from '@decor/cli/public-api';
import mongoose from 'mongoose';
import { answersCell, availabilityProblems } from './answers';
import { createCustomers, fillCart, inBatches, until } from './checkouts';
import { sessionToken } from './orders';
import { type Machine, machineCell } from './report';
import { resultsSection } from './results-section';
import { percentile } from './stats';

export interface AvailabilityStack {
  gatewayUrl: string;
  runId: string;
  jwtSecret: string;
  userDb: { url: string; db: string };
  orderDb: { url: string; db: string };
}

export interface AvailabilityFigures {
  racers: number;
  owned: number;
  booked: number;
  refused409: number;
  other: number;
  raceP50: number;
  raceP99: number;
  bookings: number;
  pageP50: number;
  pageP95: number;
  calendarP50: number;
  calendarP95: number;
  /** Documents written per booked line: the product's ledger (one guarded update) and the estimate. */
  writesPerLine: string;
  load: number;
}

/**
 * A racer's submission: its status. Node's http client, each racer on a connection of its own as each
 * customer's browser is; fetch cost the cores the stack shares about twice as much per request.
 */
function submit(agent: Agent, url: string, token: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function timed(n: number, call: () => Promise<ApiAnswer>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const answer = await call();
    if (answer.status !== 200)
      throw new Error(`availability read answered ${answer.status}: ${answer.body?.message}`);
    ms.push(performance.now() - started);
  }
  return ms;
}

const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Staff create the bench's category, subcategory and products (through the gateway, as the product form does). */
export async function createProducts(
  base: string,
  staff: string,
  tag: string,
  count: number,
  quantity: number,
) {
  const category = `BENCH-${tag}`;
  await callApi(base, '/categories', { method: 'POST', token: staff, json: { name: category } });
  await callApi(base, '/categories', {
    method: 'POST',
    token: staff,
    json: { name: 'Bench', isSubCategory: true, parent: category },
  });
  const skus = Array.from({ length: count }, (_, i) => `${category}-${String(i).padStart(3, '0')}`);
  await inBatches(skus, 10, async (sku) => {
    const res = await callApi(base, '/product', {
      method: 'POST',
      token: staff,
      json: {
        id: sku,
        name: `Bench ${sku}`,
        description: 'Bench',
        category,
        subcategory: 'Bench',
        price: 10,
        quantity,
      },
    });
    if (res.status !== 201) throw new Error(`creating ${sku} answered ${res.status}: ${res.body?.message}`);
  });
  return { category, skus };
}

export async function measureAvailability(
  stack: AvailabilityStack,
  log: (line: string) => void,
): Promise<AvailabilityFigures> {
  const base = stack.gatewayUrl;
  const load = (await import('node:os')).loadavg()[0] ?? 0;
  const staff = sessionToken(stack.jwtSecret, randomBytes(12).toString('hex'), 'admin');
  const tag = randomBytes(3).toString('hex').toUpperCase();

  // 1. The race for the last units.
  const racers = 200;
  const owned = 10;
  const {
    skus: [raceSku],
  } = await createProducts(base, staff, `${tag}R`, 1, owned);
  log(`availability: ${racers} customers fill a cart with 1 of a product the shop owns ${owned} of …`);
  const emails = await createCustomers(stack, racers, 'race');
  const carts = await inBatches(emails, 10, (email) => fillCart(base, email, [raceSku as string], 1));
  const eventDate = dayIn(45);
  log(`availability: ${racers} submit at once for ${eventDate} …`);
  const agent = new Agent({ keepAlive: false });
  const race = await Promise.all(
    carts.map(async ({ token, cartId }, i) => {
      const started = performance.now();
      const status = await submit(agent, `${base}/api/estimate`, token, {
        CartId: cartId,
        status: 'Pending',
        groupName: `Race ${i}`,
        eventDate,
        location: 'Hall',
      });
      return { status, ms: performance.now() - started };
    }),
  );
  agent.destroy();
  const connection = await mongoose
    .createConnection(stack.orderDb.url, { dbName: stack.orderDb.db })
    .asPromise();
  try {
    const ledgers = connection.collection<{ _id: string; version: number; holds: { qty: number }[] }>(
      'ledgers',
    );
    const ledger = await ledgers.findOne({ _id: raceSku as string });
    const booked = (ledger?.holds ?? []).reduce((n, h) => n + h.qty, 0);

    // 2. 100,000 bookings over the next year on 60 products, then reads.
    const { category, skus } = await createProducts(base, staff, tag, 60, 500);
    const customer = sessionToken(stack.jwtSecret, randomBytes(12).toString('hex'), 'customer');
    const page = skus.slice(0, 40);
    const query = `/availability?from=${dayIn(100)}&${page.map((s) => `id=${s}`).join('&')}`;
    await until('the bench products in the order service', 60_000, async () => {
      const res = await callApi(base, query, { token: customer });
      return (res.body?.result as unknown[] | undefined)?.length === page.length ? true : undefined;
    });
    const bookings = 100_000;
    log(
      `availability: ${bookings.toLocaleString('en-US')} bookings into the ledgers of ${skus.length} products …`,
    );
    const perProduct = Math.ceil(bookings / skus.length);
    await ledgers.insertMany(
      skus.map((sku, p) => ({
        _id: sku,
        version: 1,
        holds: Array.from({ length: Math.min(perProduct, bookings - p * perProduct) }, (_, i) => {
          const first = dayIn(1 + ((i * 7 + p) % 365));
          return {
            orderId: randomBytes(12).toString('hex'),
            qty: 1,
            first,
            last: first,
            unconfirmed: false,
            heldAt: new Date(),
            overbooked: false,
          };
        }),
      })),
    );
    log('availability: 300 date checks of a 40-product page, 100 staff month calendars of 60 products …');
    const pageMs = await timed(300, () => callApi(base, query, { token: customer }));
    const month = dayIn(100).slice(0, 7);
    const calendarMs = await timed(100, () =>
      callApi(base, `/availability/calendar?month=${month}&category=${encodeURIComponent(category)}`, {
        token: staff,
      }),
    );
    const raceMs = race.map((r) => r.ms);
    return {
      racers,
      owned,
      booked,
      refused409: race.filter((r) => r.status === 409).length,
      other: race.filter((r) => r.status !== 409 && r.status !== 201).length,
      raceP50: percentile(raceMs, 50),
      raceP99: percentile(raceMs, 99),
      bookings,
      pageP50: percentile(pageMs, 50),
      pageP95: percentile(pageMs, 95),
      calendarP50: percentile(calendarMs, 50),
      calendarP95: percentile(calendarMs, 95),
      writesPerLine: '1 ledger update per product line (+ 1 estimate insert per order)',
      load,
    };
  } finally {
    await connection.close();
  }
}

const r0 = (n: number) => Math.round(n).toString();
const r1 = (n: number) => n.toFixed(1);

export function formatAvailability(f: AvailabilityFigures): string {
  return [
    '',
    `Availability by date (1-min load before ${f.load.toFixed(2)})`,
    `  race: ${f.racers} submissions for ${f.owned} units on one date → ${f.booked} booked, ${Math.max(f.booked - f.owned, 0)} oversold, ${f.refused409} refused 409, ${f.other} other; p50 ${r0(f.raceP50)} ms, p99 ${r0(f.raceP99)} ms (goal p99 < 1 s)`,
    `  ${f.bookings.toLocaleString('en-US')} bookings: 40-product date check p50 ${r1(f.pageP50)} ms, p95 ${r1(f.pageP95)} ms (goal < 30); 60-product month calendar p50 ${r1(f.calendarP50)} ms, p95 ${r1(f.calendarP95)} ms (goal < 150)`,
    `  write amplification: ${f.writesPerLine}`,
  ].join('\n');
}

const SECTION = '## Availability by date (`--only availability`)';
const HEADER = [
  '| when (UTC) | machine | node | load (1 min) before | race: booked / owned, 409s, other | race p50 / p99 ms | bookings | 40-product date check p50 / p95 ms | 60-product calendar p50 / p95 ms |',
  '|---|---|---|---|---|---|---|---|---|',
];
const ROW = /^\| availability \d{4}-/;
const METHOD = [
  'Method: `npm run bench -- --only availability` (infra/bench/src/availability.ts), every call through the',
  'gateway. Race: staff create a product with 10 units; 200 new customers each put 1 in their cart and all',
  "submit for one date at once; the product's ledger is then read from the order database. Reads: 60 products",
  'with 500 units, 100,000 one-day bookings spread over the next year written straight into their ledgers;',
  'then, sequentially, 300 date checks of 40 of them as a customer and 100 staff month calendars of the 60.',
  'Goals: p99 < 1 s for the race, p95 < 30 ms for the date check, p95 < 150 ms for the calendar.',
].join('\n');

export function availabilityRow(machine: Machine, f: AvailabilityFigures): string {
  const cells = [
    `availability ${machine.date}`,
    machineCell(machine),
    machine.node,
    f.load.toFixed(2),
    answersCell(availabilityProblems(f), `${f.booked} / ${f.owned}, ${f.refused409}, ${f.other}`),
    `${r0(f.raceP50)} / ${r0(f.raceP99)}`,
    f.bookings.toLocaleString('en-US'),
    `${r1(f.pageP50)} / ${r1(f.pageP95)}`,
    `${r1(f.calendarP50)} / ${r1(f.calendarP95)}`,
  ];
  return `| ${cells.join(' | ')} |`;
}

const section = resultsSection({ title: SECTION, header: HEADER, row: ROW, method: METHOD, keep: 20 });
export const availabilityRows = section.rows;
export const writeAvailabilityRows = section.write;
