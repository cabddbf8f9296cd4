/**
 * The Import User dialog's data call with 5,000 QuickBooks customers (`--only import`): a fresh
 * emulator company gets 250 companies and 4,750 customers under them (the emulator's bulk control
 * call, by the API's own rules, no rate limit), the accounting-sync service (a built process, the
 * Intuit limit of 500 requests a minute) is connected to it, and once its backlog is synced, as staff,
 * sequential `GET /qbo/users` calls as the dialog makes them, straight to the service (the bench
 * gateway does not route to it; the gateway's own overhead is measured by `--only gateway`):
 *   - cold: `refresh=true` — QuickBooks read now, 1,000 Customers a query through the rate limiter;
 *   - open: the dialog opening, `hideOnSite=true&offset=0&limit=20` (the copy in memory);
 *   - search: words as typed (a name, a company, an e-mail part);
 *   - pages: offsets walking over every page.
 * p50/p95/max; every answer's total_count and page size are checked against what was seeded.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { answersCell, importProblems } from './answers';
import { BENCH_SHAPE, importSearches, seedImportBook } from './import-shape';
import { connect, json, queueOf, staffToken } from './qbo-sync';
import { type Machine, machineCell } from './report';
import { resultsSection } from './results-section';
import { percentile } from './stats';

export interface ImportStack {
  emulatorUrl: string;
  jwtSecret: string;
  /** Starts the service (once) as the qbo part would, so a full run can take this part first. */
  startAccountingSync(): Promise<{ url: string; pid: number }>;
}

export interface ImportCallFigures {
  name: string;
  example: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  right: number;
  wrong?: string;
}

export interface ImportFigures {
  customers: number;
  seedMs: number;
  calls: ImportCallFigures[];
  load: number;
}

async function measure(
  name: string,
  requests: number,
  urlOf: (i: number) => string,
  token: string,
  check: (i: number, total: number, rows: number) => string | undefined,
  warmup = 10,
): Promise<ImportCallFigures> {
  const once = async (i: number) => {
    const url = urlOf(i);
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
    const { result } = JSON.parse(text) as { result: { companies: unknown[]; customers: unknown[] } };
    const wrong = check(
      i,
      Number(res.headers.get('total_count')),
      result.companies.length + result.customers.length,
    );
    return { ms, wrong, url };
  };
  for (let i = 0; i < warmup; i++) await once(requests + i);
  const times: number[] = [];
  let right = 0;
  let wrong: string | undefined;
  for (let i = 0; i < requests; i++) {
    const r = await once(i);
    times.push(r.ms);
    if (r.wrong) wrong ??= `${r.url.replace(/^https?:\/\/[^/]+/, '')}: ${r.wrong}`;
    else right++;
  }
  return {
    name,
    example: urlOf(0).replace(/^https?:\/\/[^/]+/, ''),
    requests,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    right,
    ...(wrong ? { wrong } : {}),
  };
}

export async function measureImportListing(
  stack: ImportStack,
  opts: { requests: number },
  log: (line: string) => void,
): Promise<ImportFigures> {
  const emu = stack.emulatorUrl;
  const { realmId } = await json<{ realmId: string }>(`${emu}/__emulator/companies`, {
    method: 'POST',
    json: { name: `Import bench ${randomBytes(3).toString('hex')}` },
  });
  log(
    `import: seeding ${(BENCH_SHAPE.companies * (1 + BENCH_SHAPE.perCompany)).toLocaleString('en-US')} Customers in company ${realmId} …`,
  );
  const t0 = Date.now();
  await seedImportBook(emu, realmId, BENCH_SHAPE);
  const seedMs = Date.now() - t0;
  log(`  seeded in ${seedMs} ms; starting accounting-sync and connecting …`);
  const sync = await stack.startAccountingSync();
  const token = staffToken(stack.jwtSecret, randomBytes(12).toString('hex'));
  await connect(sync.url, realmId, token);
  // What the service heard of before (the site's demo company and customer) lands in this company
  // first; then every Customer in QuickBooks is what the listing must show.
  for (let idle = 0, deadline = Date.now() + 120_000; idle < 3; ) {
    if (Date.now() > deadline) throw new Error('import: the backlog did not drain within 120 s');
    const q = await queueOf(sync.url, token);
    idle = !q.paused && q.waiting + q.active + q.delayed === 0 ? idle + 1 : 0;
    await new Promise((r) => setTimeout(r, 250));
  }
  const all = (await json<unknown[]>(`${emu}/__emulator/realms/${realmId}/records/Customer`)).length;
  const base = `${sync.url}/qbo/users`;
  const whole = await fetch(`${base}?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const onSite =
    all -
    Number(
      (
        await fetch(`${base}?limit=1&hideOnSite=true`, { headers: { authorization: `Bearer ${token}` } })
      ).headers.get('total_count'),
    );
  if (Number(whole.headers.get('total_count')) !== all)
    throw new Error(`import: the listing has ${whole.headers.get('total_count')} entries, QuickBooks ${all}`);
  const shown = all - onSite;
  const load = os.loadavg()[0] ?? 0;
  log(
    `  ${all.toLocaleString('en-US')} Customers in QuickBooks (${onSite} on the site); ${opts.requests} sequential calls each …`,
  );

  const page = (total: number, offset: number) => Math.max(0, Math.min(20, total - offset));
  const calls: ImportCallFigures[] = [];
  calls.push(
    await measure(
      'cold (refresh=true: QuickBooks read)',
      5,
      () => `${base}?hideOnSite=true&offset=0&limit=20&refresh=true`,
      token,
      (_, total, rows) => (total === shown && rows === 20 ? undefined : `total ${total}, ${rows} rows`),
      1,
    ),
  );
  calls.push(
    await measure(
      'dialog opens',
      opts.requests,
      () => `${base}?hideOnSite=true&offset=0&limit=20`,
      token,
      (_, total, rows) => (total === shown && rows === 20 ? undefined : `total ${total}, ${rows} rows`),
    ),
  );
  const searches = importSearches(BENCH_SHAPE);
  calls.push(
    await measure(
      'search',
      opts.requests,
      (i) =>
        `${base}?hideOnSite=true&offset=0&limit=20&search=${encodeURIComponent(searches[i % searches.length]?.search ?? '')}`,
      token,
      (i, total, rows) => {
        const want = searches[i % searches.length]?.total ?? 0;
        return total === want && rows === Math.min(20, want)
          ? undefined
          : `total ${total} (want ${want}), ${rows} rows`;
      },
    ),
  );
  const pages = Math.ceil(shown / 20);
  const offsetOf = (i: number) => ((i * 37) % pages) * 20;
  calls.push(
    await measure(
      'pages',
      opts.requests,
      (i) => `${base}?hideOnSite=true&offset=${offsetOf(i)}&limit=20`,
      token,
      (i, total, rows) =>
        total === shown && rows === page(shown, offsetOf(i)) ? undefined : `total ${total}, ${rows} rows`,
    ),
  );
  for (const c of calls) log(`  ${formatCall(c)}`);
  return { customers: all, seedMs, calls, load };
}

const r1 = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(1));

function formatCall(c: ImportCallFigures): string {
  const checked =
    c.right === c.requests ? 'every answer right' : `${c.requests - c.right} WRONG (${c.wrong})`;
  return `${c.name} (${c.example}): p50 ${r1(c.p50)} ms, p95 ${r1(c.p95)} ms, max ${r1(c.max)} ms (${c.requests} calls); ${checked}`;
}

/** The lines printed at the end of a run. */
export function formatImportListing(f: ImportFigures): string {
  return [
    '',
    `Import User dialog — GET /qbo/users with ${f.customers.toLocaleString('en-US')} QuickBooks Customers (goal: the dialog's call well under 1 s); 1-min load before ${f.load.toFixed(2)}`,
    ...f.calls.map((c) => `  ${formatCall(c)}`),
  ].join('\n');
}

// ---- infra/bench/bench-results.md: a section of its own ----

const SECTION = '## Import User dialog (`--only import`)';
const HEADER = [
  '| when (UTC) | machine | node | load (1 min) before | QuickBooks Customers | cold (QuickBooks read) p50 / p95 ms | dialog opens p50 / p95 ms | search p50 / p95 ms | pages p50 / p95 ms | answers right |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
// Rows start with "import": report.ts and the other sections keep rows of their own shapes.
const ROW = /^\| import \d{4}-/;
const METHOD = [
  'Method: `npm run bench -- --only import` (infra/bench/src/import-listing.ts). A fresh emulator company gets',
  '250 companies and 4,750 customers under them (`POST /__emulator/realms/:realmId/records/Customer`), the',
  "accounting-sync service (built, Intuit's 500 requests/min) is connected to it and syncs its backlog; then,",
  'as staff, straight to the service, sequential `GET /qbo/users` calls: cold = `refresh=true` (QuickBooks read',
  'now: 1,000 a query through the rate limiter; 5 calls after 1), dialog opens = `hideOnSite=true&offset=0&limit=20`',
  'from the copy in memory, search = 4 searches as typed (a company, a first name, an e-mail, a name part), pages =',
  'offsets over every page (each 100 calls after 10). Every total_count and page size is checked; one wrong',
  'fails the part (FAILED in the answers cell, exit 1; also `test/import-searches.test.ts`). Goal: the',
  "dialog's call well under 1 s (the dialog's own rendering is 20 entries a page).",
].join('\n');

export function importListingRow(machine: Machine, f: ImportFigures): string {
  const cell = (c: ImportCallFigures | undefined) => (c ? `${r1(c.p50)} / ${r1(c.p95)}` : '–');
  const right = f.calls.reduce((n, c) => n + c.right, 0);
  const all = f.calls.reduce((n, c) => n + c.requests, 0);
  const cells = [
    `import ${machine.date}`,
    machineCell(machine),
    machine.node,
    f.load.toFixed(2),
    f.customers.toLocaleString('en-US'),
    ...[0, 1, 2, 3].map((k) => cell(f.calls[k])),
    answersCell(importProblems(f), `${right}/${all}`),
  ];
  return `| ${cells.join(' | ')} |`;
}

const section = resultsSection({ title: SECTION, header: HEADER, row: ROW, method: METHOD, keep: 20 });
export const importListingRows = section.rows;
export const writeImportListingRows = section.write;
