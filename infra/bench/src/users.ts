/**
 * The back office's users and companies lists (`--only users`), through the gateway of the bench stack:
 * 1,000 companies and 10,000 customers (10 per company) are stored straight into the user service's
 * database through its own models (`@decor/user`: its schema, defaults and derived search keys; no
 * outbox events, so nobody is e-mailed or synced), then, as staff, sequential requests of the four
 * lists the admin's Users screen makes (spec §7 Users / Companies):
 *   - users list: `GET /api/user?limit=20&offset=<page>&order=ownCompany:ASC&permissions=customer`, the
 *     offset walking over every page (infinite scroll reaches deep pages);
 *   - users search: the same with `like=ownCompany:<prefix>` (prefixes as typed: 1-2 letters, a word,
 *     a word and a half, lower case);
 *   - companies list: `GET /api/company?limit=20&offset=<page>&order=displayName:ASC`;
 *   - companies search: `GET /api/company?limit=20&like=name:<prefix>&order=displayName:ASC`.
 * p50/p95/max and req/s (one request at a time) after a tenth as many unmeasured ones; every answer's
 * `total_count` header and rows (count, order, prefix) are checked against what is in the database.
 */
import os from 'node:os';
import { companyModel, userModel } from '@decor/user';
import mongoose from 'mongoose';
import { answersCell, usersProblems } from './answers';
import { staffToken } from './qbo-sync';
import { type Machine, machineCell } from './report';
import { resultsSection } from './results-section';
import { cpuMeter, formatCores, percentile, processRoles } from './stats';

export interface UsersStack {
  runId: string;
  gatewayUrl: string;
  jwtSecret: string;
  /** The user service's database. */
  userDb: { url: string; db: string };
  pids: Record<string, number>;
}

export interface UsersOptions {
  companies: number;
  /** Customers, spread evenly over the companies. */
  users: number;
  /** Measured requests per list (after `requests / 10` unmeasured ones). */
  requests: number;
}

export interface ListFigures {
  name: string;
  example: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  reqPerSecond: number;
  /** Answers whose total_count and rows were right. */
  right: number;
  /** The first wrong answer, described. */
  wrong?: string;
}

export interface UsersFigures {
  companies: number;
  users: number;
  seedMs: number;
  lists: ListFigures[];
  /** 1-minute load average before the lists, and the cores used (others: the rest of the machine). */
  load: number;
  cores: Record<string, number>;
}

const FIRST = [
  'Amber',
  'Birch',
  'Blue',
  'Cedar',
  'Coral',
  'Crystal',
  'Golden',
  'Harbor',
  'Ivory',
  'Juniper',
  'Lakeside',
  'Magnolia',
  'Maple',
  'Meadow',
  'Olive',
  'Rose',
  'Silver',
  'Sunset',
  'Velvet',
  'Willow',
];
const SECOND = ['Bay', 'Creek', 'Garden', 'Grove', 'Hall', 'Hill', 'Lane', 'Park', 'Ridge', 'Vale'];
const KIND = ['Catering', 'Events', 'Parties', 'Planners', 'Weddings'];

/** Distinct company names ('Amber Bay Catering', …), then numbered once the combinations run out. */
function companyName(i: number): string {
  const combos = FIRST.length * SECOND.length * KIND.length;
  const n = i % combos;
  const name = `${FIRST[n % FIRST.length]} ${SECOND[Math.floor(n / FIRST.length) % SECOND.length]} ${
    KIND[Math.floor(n / (FIRST.length * SECOND.length)) % KIND.length]
  }`;
  return i < combos ? name : `${name} ${Math.floor(i / combos) + 1}`;
}

/** Prefixes as staff type them: lower case, from one letter to a word and a half. */
const USER_PREFIXES = [
  'm',
  'bl',
  'sil',
  'golden',
  'harbor g',
  'willow r',
  'cedar hill',
  'ro',
  'juniper',
  'ol',
];
const COMPANY_PREFIXES = [
  'a',
  'ma',
  'cor',
  'sunset',
  'lakeside p',
  'velvet',
  'iv',
  'birch cr',
  'w',
  'crystal',
];

interface Seeded {
  /** Live customers' ownCompany and companies' names/display names in the database after seeding. */
  customerCompanies: string[];
  companyNames: Array<{ name: string; displayName: string }>;
  ms: number;
}

async function seed(stack: UsersStack, opts: UsersOptions, log: (line: string) => void): Promise<Seeded> {
  const connection = await mongoose
    .createConnection(stack.userDb.url, { dbName: stack.userDb.db })
    .asPromise();
  try {
    const companies = companyModel(connection);
    const users = userModel(connection);
    const t0 = Date.now();
    const ids: Array<{ id: mongoose.Types.ObjectId; name: string }> = [];
    for (let from = 0; from < opts.companies; from += 500) {
      const docs = Array.from({ length: Math.min(500, opts.companies - from) }, (_, j) => {
        const name = companyName(from + j);
        const doc = new companies({
          name,
          displayName: name,
          street: `${100 + from + j} Bench Street`,
          city: 'Austin',
          state: 'TX',
          zipCode: '78701',
          phone: '512-555-0100',
        });
        ids.push({ id: doc._id, name });
        return doc;
      });
      await companies.insertMany(docs, { ordered: false });
    }
    for (let from = 0; from < opts.users; from += 1000) {
      const docs = Array.from({ length: Math.min(1000, opts.users - from) }, (_, j) => {
        const i = from + j;
        const company = ids[i % ids.length] as { id: mongoose.Types.ObjectId; name: string };
        const n = String(i + 1).padStart(5, '0');
        return new users({
          firstName: 'Bench',
          lastName: `User ${n}`,
          displayName: `Bench User ${n}`,
          email: `bench-user-${n}@${stack.runId}.example`,
          phone: '512-555-0101',
          permissions: 'customer',
          active: true,
          CompanyId: company.id.toString(),
          ownCompany: company.name,
        });
      });
      await users.insertMany(docs, { ordered: false });
    }
    const ms = Date.now() - t0;
    log(`  stored in ${ms} ms`);
    // What the lists must find: everything live in the database now (the demo records too), read
    // plainly here, not through the service's queries.
    const live = { $or: [{ deletedAt: null }, { deletedAt: { $exists: false } }] };
    const customerCompanies = (
      await users.collection
        .find({ permissions: 'customer', ...live }, { projection: { ownCompany: 1 } })
        .toArray()
    ).map((u) => String(u.ownCompany ?? ''));
    const companyNames = (
      await companies.collection.find(live, { projection: { name: 1, displayName: 1 } }).toArray()
    ).map((c) => ({ name: String(c.name), displayName: String(c.displayName) }));
    return { customerCompanies, companyNames, ms };
  } finally {
    await connection.close();
  }
}

interface Answer {
  rows: Array<Record<string, unknown>>;
  total: number;
}

/** `check` says what is wrong with an answer to request `i`, or nothing. */
async function measureList(
  name: string,
  requests: number,
  urlOf: (i: number) => string,
  token: string,
  check: (i: number, a: Answer) => string | undefined,
): Promise<ListFigures> {
  const once = async (i: number) => {
    const url = urlOf(i);
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
    const answer = {
      rows: (JSON.parse(text) as { result: Array<Record<string, unknown>> }).result,
      total: Number(res.headers.get('total_count')),
    };
    return { ms, wrong: check(i, answer), url };
  };
  const warmup = Math.max(10, Math.round(requests / 10));
  for (let i = 0; i < warmup; i++) await once(requests + i);
  const times: number[] = [];
  let right = 0;
  let wrong: string | undefined;
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) {
    const r = await once(i);
    times.push(r.ms);
    if (r.wrong) wrong ??= `${r.url.replace(/^https?:\/\/[^/]+/, '')}: ${r.wrong}`;
    else right++;
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    name,
    example: urlOf(0).replace(/^https?:\/\/[^/]+/, ''),
    requests,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    reqPerSecond: requests / seconds,
    right,
    ...(wrong ? { wrong } : {}),
  };
}

const lower = (s: string) => s.toLowerCase();
const sortedBy = (rows: Array<Record<string, unknown>>, field: string) =>
  rows.every((r, k) => k === 0 || lower(String(rows[k - 1]?.[field] ?? '')) <= lower(String(r[field] ?? '')));

/** What is wrong with a page: its total, its size, its order, its prefix (nothing: undefined). */
function pageProblem(
  a: Answer,
  expected: { total: number; offset: number; field: string; prefix?: string; prefixField?: string },
): string | undefined {
  if (a.total !== expected.total) return `total_count ${a.total}, expected ${expected.total}`;
  const size = Math.max(0, Math.min(20, expected.total - expected.offset));
  if (a.rows.length !== size) return `${a.rows.length} rows, expected ${size}`;
  if (!sortedBy(a.rows, expected.field)) return `rows not in ${expected.field} order`;
  const { prefix, prefixField } = expected;
  if (prefix && prefixField && !a.rows.every((r) => lower(String(r[prefixField] ?? '')).startsWith(prefix)))
    return `a row whose ${prefixField} does not start with '${prefix}'`;
  return undefined;
}

export async function measureUsers(
  stack: UsersStack,
  opts: UsersOptions,
  log: (line: string) => void,
): Promise<UsersFigures> {
  const gw = stack.gatewayUrl;
  const token = staffToken(stack.jwtSecret, new mongoose.Types.ObjectId().toString());
  log(
    `users: storing ${opts.companies.toLocaleString('en-US')} companies and ${opts.users.toLocaleString('en-US')} customers in ${stack.userDb.db} …`,
  );
  const seeded = await seed(stack, opts, log);
  const customers = seeded.customerCompanies.length;
  const companies = seeded.companyNames.length;
  const usersWith = (p: string) => seeded.customerCompanies.filter((c) => lower(c).startsWith(p)).length;
  const companiesWith = (p: string) => seeded.companyNames.filter((c) => lower(c.name).startsWith(p)).length;
  // Offsets walking over every page: page k of n, spread evenly, the first and the last included.
  const offsetOf = (i: number, total: number) => {
    const pages = Math.max(1, Math.ceil(total / 20));
    return (Math.round((i * pages) / Math.max(1, opts.requests - 1)) % pages) * 20;
  };
  const meter = cpuMeter(processRoles(stack.pids));
  const load = os.loadavg()[0] ?? 0;
  log(`  ${opts.requests} sequential requests per list …`);
  const lists: ListFigures[] = [];
  const usersList = `${gw}/api/user?limit=20&order=ownCompany:ASC&permissions=customer`;
  lists.push(
    await measureList(
      'users list',
      opts.requests,
      (i) => `${usersList}&offset=${offsetOf(i, customers)}`,
      token,
      (i, a) => pageProblem(a, { total: customers, offset: offsetOf(i, customers), field: 'ownCompany' }),
    ),
  );
  const userPrefix = (i: number) => USER_PREFIXES[i % USER_PREFIXES.length] as string;
  lists.push(
    await measureList(
      'users search',
      opts.requests,
      (i) => `${usersList}&offset=0&like=ownCompany:${encodeURIComponent(userPrefix(i))}`,
      token,
      (i, a) =>
        pageProblem(a, {
          total: usersWith(userPrefix(i)),
          offset: 0,
          field: 'ownCompany',
          prefix: userPrefix(i),
          prefixField: 'ownCompany',
        }),
    ),
  );
  const companyList = `${gw}/api/company?limit=20&order=displayName:ASC`;
  lists.push(
    await measureList(
      'companies list',
      opts.requests,
      (i) => `${companyList}&offset=${offsetOf(i, companies)}`,
      token,
      (i, a) => pageProblem(a, { total: companies, offset: offsetOf(i, companies), field: 'displayName' }),
    ),
  );
  const companyPrefix = (i: number) => COMPANY_PREFIXES[i % COMPANY_PREFIXES.length] as string;
  lists.push(
    await measureList(
      'companies search',
      opts.requests,
      (i) => `${companyList}&offset=0&like=name:${encodeURIComponent(companyPrefix(i))}`,
      token,
      (i, a) =>
        pageProblem(a, {
          total: companiesWith(companyPrefix(i)),
          offset: 0,
          field: 'displayName',
          prefix: companyPrefix(i),
          prefixField: 'name',
        }),
    ),
  );
  for (const l of lists) log(`  ${formatList(l)}`);
  return { companies, users: customers, seedMs: seeded.ms, lists, load, cores: meter() };
}

const r0 = (n: number) => (Number.isNaN(n) ? '–' : String(Math.round(n)));
const r1 = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(1));

function formatList(l: ListFigures): string {
  const checked =
    l.right === l.requests ? 'every answer right' : `${l.requests - l.right} WRONG (${l.wrong})`;
  return `${l.name} (${l.example}): p50 ${r1(l.p50)} ms, p95 ${r1(l.p95)} ms (goal < 50), max ${r1(l.max)} ms, ${r0(l.reqPerSecond)} req/s (one at a time, ${l.requests} requests); ${checked}`;
}

/** The lines printed at the end of a run. */
export function formatUsers(f: UsersFigures): string {
  return [
    '',
    `Users and companies lists — ${f.users.toLocaleString('en-US')} customers and ${f.companies.toLocaleString('en-US')} companies (stored in ${f.seedMs} ms); 1-min load before ${f.load.toFixed(2)}`,
    ...f.lists.map((l) => `  ${formatList(l)}`),
    `  cores used: ${formatCores(f.cores)}`,
  ].join('\n');
}

// ---- infra/bench/bench-results.md: a section of its own ----

const SECTION = '## Users and companies lists (`--only users`)';
const HEADER = [
  '| when (UTC) | machine | node | load (1 min) before | others busy (cores) | users list p50 / p95 ms, req/s | users search p50 / p95 ms, req/s | companies list p50 / p95 ms, req/s | companies search p50 / p95 ms, req/s | answers right |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
// Rows start with "users": report.ts keeps rows starting "| 2026-…", the QuickBooks section
// "| 2026-…T", the orders section "| Mon 2026-…".
const ROW = /^\| users \d{4}-/;
const METHOD = [
  'Method: `npm run bench -- --only users` (infra/bench/src/users.ts). 1,000 companies and 10,000 customers',
  "(10 per company) are stored in the user service's database through its own models (`@decor/user`; no",
  'events). As staff, through the gateway, 300 sequential requests each (after 30 unmeasured; req/s = one at',
  'a time): `GET /api/user?limit=20&offset=…&order=ownCompany:ASC&permissions=customer` walking over every',
  'page; the same with `like=ownCompany:<prefix>` (10 prefixes as typed, lower case: 1 letter to a word and',
  'a half); `GET /api/company?limit=20&offset=…&order=displayName:ASC` over every page; and with',
  "`like=name:<prefix>`. Every answer's total_count header, row count, order and prefix are checked against",
  'the database (read directly). Goal: p95 under 50 ms.',
].join('\n');

export function usersRow(machine: Machine, f: UsersFigures): string {
  const cell = (l: ListFigures | undefined) =>
    l ? `${r1(l.p50)} / ${r1(l.p95)}, ${r0(l.reqPerSecond)}` : '–';
  const right = f.lists.reduce((n, l) => n + l.right, 0);
  const all = f.lists.reduce((n, l) => n + l.requests, 0);
  const cells = [
    `users ${machine.date}`,
    machineCell(machine),
    machine.node,
    f.load.toFixed(2),
    (f.cores.others ?? Number.NaN).toFixed(2),
    ...[0, 1, 2, 3].map((k) => cell(f.lists[k])),
    answersCell(usersProblems(f), `${right}/${all}`),
  ];
  return `| ${cells.join(' | ')} |`;
}

const section = resultsSection({ title: SECTION, header: HEADER, row: ROW, method: METHOD, keep: 20 });
export const usersRows = section.rows;
export const writeUsersRows = section.write;
