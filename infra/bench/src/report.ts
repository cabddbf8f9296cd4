import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { answersCell, checkoutProblems } from './answers';
import { type Calibration, calibrationText } from './calibration';
import type { CatalogueReads } from './catalogue-reads';
import { PRODUCT_LIST_PATH } from './catalogue-reads';
import type { CheckoutFigures } from './checkouts';
import type { PipelineFigures } from './event-pipeline';
import {
  type FrontendFigures,
  kb,
  LABELLED_SCRIPTS,
  MOBILE_BUDGET,
  type MobileFigures,
} from './frontend-budgets';
import type { GatewayOverhead } from './gateway-overhead';
import { formatCores } from './stats';

export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  /** 1-minute load average just before the run: anything else busy on the machine shows here. */
  loadBefore: number;
  /** Measured at the start of the run (calibration.ts); the regression guard reads it back. */
  calibration?: Calibration;
}

/** "2 cores, 24 GB; machine 3f9a1c0d, loop 84 ms, bare Fastify 12,345/s": every table's machine cell. */
export function machineCell(m: Machine): string {
  const size = `${m.cores} cores, ${m.memoryGb} GB`;
  return m.calibration ? `${size}; ${calibrationText(m.calibration)}` : size;
}

export function describeMachine(): Machine {
  return {
    date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')}Z`,
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadBefore: os.loadavg()[0] ?? 0,
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (Number.isNaN(n) ? '–' : String(Math.round(n)));
const pct = (n: number) => `${Math.round(n * 100)} %`;

export interface Results {
  machine: Machine;
  processes: string;
  gateway?: GatewayOverhead;
  /** One per rate measured, slowest first. */
  pipeline?: PipelineFigures[];
  catalogue?: CatalogueReads;
  checkouts?: CheckoutFigures;
  frontend?: FrontendFigures;
}

/** The compact table printed at the end of a run. */
export function formatTable(r: Results): string {
  const lines = [
    '',
    `Benchmarks ${r.machine.date} — ${r.machine.cores} cores (${r.machine.cpu}), ${r.machine.memoryGb} GB, Node ${r.machine.node}, load ${r.machine.loadBefore.toFixed(2)} before`,
    `Processes: ${r.processes}`,
  ];
  const g = r.gateway;
  if (g) {
    lines.push(
      '',
      `Gateway overhead — ${g.route}, ${g.connections} connections, ${g.seconds} s per target (halves: direct, gateway, gateway, direct) after ${g.warmupSeconds} s warm-up`,
      `  ${'target'.padEnd(14)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'failed'.padStart(8)}   cores used`,
    );
    for (const [name, f] of [
      ['direct', g.direct],
      ['via gateway', g.viaGateway],
    ] as const) {
      lines.push(
        `  ${name.padEnd(14)}${int(f.requestsPerSecond).padStart(9)}${ms(f.p50Ms).padStart(9)}${ms(f.p99Ms).padStart(9)}${String(f.failures).padStart(8)}   ${formatCores(f.cores)}`,
      );
    }
    lines.push(`  through the gateway: ${pct(g.ratio)} of direct throughput (target ≥ 60 %)`);
    lines.push(...ownCostLines(g));
  }
  for (const p of r.pipeline ?? []) {
    lines.push(
      '',
      `Event pipeline — state write → e-mail job in Redis, ${p.events} events at ${p.perSecond}/s after ${p.warmupEvents} warm-up`,
      `  ${'stage'.padEnd(22)}${'p50'.padStart(7)}${'p90'.padStart(7)}${'p99'.padStart(7)}${'max'.padStart(7)}  ms`,
    );
    for (const [name, s] of [
      ['write → job (total)', p.total],
      ['  write → published', p.writeToPublished],
      ['  published → job', p.publishedToJob],
    ] as const) {
      lines.push(
        `  ${name.padEnd(22)}${ms(s.p50).padStart(7)}${ms(s.p90).padStart(7)}${ms(s.p99).padStart(7)}${ms(s.max).padStart(7)}`,
      );
    }
    lines.push(
      `  targets: p50 < 20 ms, p99 < 150 ms; missing ${p.missing}, failed sends ${p.failedSends}; cores used: ${formatCores(p.cores)}`,
    );
  }
  const c = r.catalogue;
  if (c) {
    lines.push(
      '',
      `Catalogue reads — GET ${PRODUCT_LIST_PATH} (signed in, ${c.listed} products) beside the gateway's /healthz, ${c.connections} connections, ${c.seconds} s per target after ${c.warmupSeconds} s warm-up`,
      `  ${'target'.padEnd(14)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'failed'.padStart(8)}   cores used`,
    );
    for (const [name, f] of [
      ['/healthz', c.health],
      ['product list', c.products],
    ] as const) {
      lines.push(
        `  ${name.padEnd(14)}${int(f.requestsPerSecond).padStart(9)}${ms(f.p50Ms).padStart(9)}${ms(f.p99Ms).padStart(9)}${String(f.failures).padStart(8)}   ${formatCores(f.cores)}`,
      );
    }
    lines.push(`  the product list keeps ${pct(c.ratio)} of the health route's throughput (target ≥ 50 %)`);
  }
  const k = r.checkouts;
  if (k) {
    lines.push(
      '',
      `Checkouts — ${k.customers} customers send POST /api/estimate at once (2 lines each)`,
      `  succeeded ${k.succeeded}/${k.customers}; latency p50 ${ms(k.p50Ms)} ms, p99 ${ms(k.p99Ms)} ms, max ${ms(k.maxMs)} ms`,
      `  estimates ${k.estimates}, checked-out carts ${k.checkedOutCarts}, customer e-mails ${k.customerEmails}, staff e-mails ${k.staffEmails} (each should be ${k.customers}); settled ${k.settleSeconds.toFixed(1)} s after the last answer`,
    );
  }
  const f = r.frontend;
  if (f) lines.push('', ...frontendLines(f));
  return lines.join('\n');
}

/** The gateway's own cost: /healthz and the signed-in product list against bare Fastify, same run. */
function ownCostLines(g: GatewayOverhead): string[] {
  const o = g.own;
  const lines = [
    `  The gateway's own cost, same load and halves; product list: GET ${PRODUCT_LIST_PATH} signed in (${o.listed} products, from the gateway's cache)`,
  ];
  for (const [name, f] of [
    ['bare Fastify', o.baseline],
    ['/healthz', o.health],
    ['product list', o.products],
  ] as const) {
    lines.push(
      `  ${name.padEnd(14)}${int(f.requestsPerSecond).padStart(9)}${ms(f.p50Ms).padStart(9)}${ms(f.p99Ms).padStart(9)}${String(f.failures).padStart(8)}   ${formatCores(f.cores)}`,
    );
  }
  lines.push(
    `  of bare Fastify's throughput: /healthz ${pct(o.healthRatio)} (target ≥ 60 %), product list ${pct(o.productsRatio)} (target ≥ 40 %)`,
  );
  return lines;
}

/** JS figures of a page as the runs table shows them: the gzip figure, and what came over the wire. */
function jsCell(f: FrontendFigures, page: string): string {
  const p = f.pages.find((x) => x.name === page);
  if (!p) return '–';
  return f.compressed ? kb(p.wireJsBytes) : `${kb(p.gzipJsBytes)} (wire ${kb(p.wireJsBytes)})`;
}

function frontendLines(f: FrontendFigures): string[] {
  const wire = f.compressed ? `over the wire (${f.encodings.join(', ')})` : 'over the wire (uncompressed!)';
  const lines = [
    `Frontend budgets — first visit as a visitor, fresh Chromium context each, ${f.viewport}, median of ${f.visits} visits after 1 unmeasured`,
    f.compressed
      ? `  JS KB: what came over the wire (${f.encodings.join(', ')}); gzip -6 of the same scripts beside it`
      : '  The gateway served the scripts UNCOMPRESSED: "JS gzip KB" is each script gzipped here (zlib level 6), summed; "wire" is what Chromium received',
    `  ${'page'.padEnd(30)}${'JS gzip KB'.padStart(11)}${'target'.padStart(8)}${'wire KB'.padStart(9)}${'raw KB'.padStart(9)}${'scripts'.padStart(8)}${'requests'.padStart(9)}${'LCP ms'.padStart(8)}${'(min–max)'.padStart(12)}`,
  ];
  for (const p of f.pages) {
    lines.push(
      `  ${p.path.padEnd(30)}${kb(p.gzipJsBytes).padStart(11)}${(p.targetKb ? String(p.targetKb) : '–').padStart(8)}${kb(p.wireJsBytes).padStart(9)}${kb(p.rawJsBytes).padStart(9)}${String(p.scripts).padStart(8)}${String(p.requests).padStart(9)}${ms(p.lcpMs).padStart(8)}${`(${ms(p.lcpMinMs)}–${ms(p.lcpMaxMs)})`.padStart(12)}`,
    );
  }
  for (const p of f.pages) {
    const budget = p.targetKb
      ? p.gzipJsBytes <= p.targetKb * 1024
        ? `within ${p.targetKb} KB (${kb(p.targetKb * 1024 - p.gzipJsBytes)} KB to spare)`
        : `OVER ${p.targetKb} KB by ${kb(p.gzipJsBytes - p.targetKb * 1024)} KB`
      : 'no budget';
    lines.push(`  ${p.path}: JS ${budget}; LCP element: ${p.lcpElement}`);
    if (p.targetKb) {
      lines.push('    largest scripts (gzip KB; contents by minified bytes, from the source maps):');
      for (const s of p.largestScripts.slice(0, LABELLED_SCRIPTS)) {
        lines.push(`      ${s.url.padEnd(42)}${kb(s.gzipBytes).padStart(7)}  ${s.contents ?? ''}`);
      }
    }
    if (p.problems.length > 0) lines.push(`    problems: ${p.problems.slice(0, 5).join('; ')}`);
  }
  if (!f.compressed) lines.push(`  (${wire}: the budgets name gzip, so they are read on the gzip column)`);
  const blank = f.pages.find((p) => p.name === 'blank')?.lcpMs;
  for (const p of f.pages.filter((x) => x.name !== 'blank' && blank !== undefined)) {
    const ratio = p.lcpMs / (blank as number);
    lines.push(
      `  ${p.path}: unthrottled LCP ${ratio.toFixed(1)}× the blank page's${ratio > 2 ? ' — OVER the 2× goal' : ' (goal ≤ 2×)'}`,
    );
  }
  if (f.mobile) lines.push('', ...mobileLines(f.mobile));
  return lines;
}

function mobileLines(m: MobileFigures): string[] {
  const lines = [
    `Phone profile (Lighthouse mobile: ${m.profile}) — median of ${m.visits} cold visits after 1 unmeasured; budgets LCP ≤ ${MOBILE_BUDGET.lcpMs} ms, CLS ≤ ${MOBILE_BUDGET.cls}`,
    `  ${'page'.padEnd(44)}${'LCP ms'.padStart(8)}${'(min–max)'.padStart(14)}${'FCP ms'.padStart(8)}${'CLS'.padStart(7)}${'TBT ms'.padStart(8)}${'JS KB'.padStart(8)}${'requests'.padStart(9)}`,
  ];
  for (const p of m.pages) {
    lines.push(
      `  ${p.path.padEnd(44)}${ms(p.lcpMs).padStart(8)}${`(${ms(p.lcpMinMs)}–${ms(p.lcpMaxMs)})`.padStart(14)}${ms(p.fcpMs).padStart(8)}${p.cls.toFixed(3).padStart(7)}${ms(p.tbtMs).padStart(8)}${kb(p.wireJsBytes).padStart(8)}${String(p.requests).padStart(9)}`,
    );
  }
  for (const p of m.pages) {
    lines.push(`  ${p.path}: LCP element ${p.lcpElement}`);
    if (p.problems.length > 0) lines.push(`    problems: ${p.problems.slice(0, 5).join('; ')}`);
  }
  if (m.overBudget.length === 0) lines.push('  every public page within its phone budgets');
  for (const over of m.overBudget) lines.push(`  !!! BUDGET EXCEEDED: ${over}`);
  return lines;
}

const RUNS_HEADER = [
  '| date (UTC) | machine | node | others busy (cores) | settings | direct req/s (p50/p99 ms) | via gateway req/s (p50/p99 ms) | gateway keeps | events | write → job p50 / p90 / p99 / max ms | write → published p50/p99 | published → job p50/p99 | product list req/s (p99) vs /healthz | checkouts ok, p99 ms | estimates / carts / e-mails | JS KB gzip `/` (≤ 300) | JS KB gzip inventory (≤ 450) | LCP ms `/` · inventory · blank | requests `/` · inventory |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
const KEEP_RUNS = 20;

/** The most CPU other processes used during any measured phase: high means the figures are disturbed. */
function othersBusy(r: Results): string {
  const phases = [
    r.gateway?.direct.cores,
    r.gateway?.viaGateway.cores,
    r.gateway?.own.health.cores,
    r.gateway?.own.products.cores,
    ...(r.pipeline ?? []).map((p) => p.cores),
    r.catalogue?.health.cores,
    r.catalogue?.products.cores,
  ];
  const others = phases.flatMap((c) => (c?.others === undefined ? [] : [c.others]));
  return others.length > 0 ? Math.max(...others).toFixed(2) : '–';
}

function settings(r: Results, pipeline: PipelineFigures | undefined): string {
  const parts: string[] = [];
  if (r.gateway)
    parts.push(
      `${r.gateway.connections} conn × ${r.gateway.seconds} s (+${r.gateway.warmupSeconds} s warm-up)`,
    );
  const c = r.catalogue;
  // The catalogue reads use the same load settings; named when the gateway part did not run.
  if (c && !r.gateway) parts.push(`${c.connections} conn × ${c.seconds} s (+${c.warmupSeconds} s warm-up)`);
  if (pipeline) parts.push(`${pipeline.warmupEvents} + ${pipeline.events} events at ${pipeline.perSecond}/s`);
  if (r.checkouts) parts.push(`${r.checkouts.customers} checkouts`);
  if (r.frontend) parts.push(`${r.frontend.visits} cold visits per page`);
  return parts.join('; ');
}

/**
 * The run's rows: one, and one more for each further pipeline rate (its own figures only), so that
 * every row holds one rate's figures and a later run compares with the row of the same rate.
 */
export function runRows(r: Results): string[] {
  const [first, ...faster] = r.pipeline ?? [];
  return [
    runRow(r, first),
    ...faster.map((p) => runRow({ machine: r.machine, processes: r.processes, pipeline: [p] }, p)),
  ];
}

function runRow(r: Results, p: PipelineFigures | undefined): string {
  const g = r.gateway;
  const cells = [
    r.machine.date,
    machineCell(r.machine),
    r.machine.node,
    othersBusy(r),
    settings(r, p),
    g ? `${int(g.direct.requestsPerSecond)} (${ms(g.direct.p50Ms)}/${ms(g.direct.p99Ms)})` : '–',
    g ? `${int(g.viaGateway.requestsPerSecond)} (${ms(g.viaGateway.p50Ms)}/${ms(g.viaGateway.p99Ms)})` : '–',
    g
      ? `${pct(g.ratio)}; bare Fastify ${int(g.own.baseline.requestsPerSecond)}: /healthz ${pct(g.own.healthRatio)}, product list ${pct(g.own.productsRatio)}`
      : '–',
    p ? String(p.events) : '–',
    p ? `${ms(p.total.p50)} / ${ms(p.total.p90)} / ${ms(p.total.p99)} / ${ms(p.total.max)}` : '–',
    p ? `${ms(p.writeToPublished.p50)}/${ms(p.writeToPublished.p99)}` : '–',
    p ? `${ms(p.publishedToJob.p50)}/${ms(p.publishedToJob.p99)}` : '–',
    r.catalogue
      ? `${int(r.catalogue.products.requestsPerSecond)} (${ms(r.catalogue.products.p99Ms)}) vs ${int(r.catalogue.health.requestsPerSecond)} (${ms(r.catalogue.health.p99Ms)}): ${pct(r.catalogue.ratio)}`
      : '–',
    r.checkouts
      ? answersCell(
          checkoutProblems(r.checkouts),
          `${r.checkouts.succeeded}/${r.checkouts.customers}, ${ms(r.checkouts.p99Ms)}`,
        )
      : '–',
    r.checkouts
      ? `${r.checkouts.estimates} / ${r.checkouts.checkedOutCarts} / ${r.checkouts.customerEmails}+${r.checkouts.staffEmails}`
      : '–',
    ...frontendCells(r.frontend),
  ];
  return `| ${cells.join(' | ')} |`;
}

function frontendCells(f: FrontendFigures | undefined): string[] {
  if (!f) return ['–', '–', '–', '–'];
  const page = (name: string) => f.pages.find((p) => p.name === name);
  const lcp = ['home', 'inventory', 'blank'].map((n) => ms(page(n)?.lcpMs ?? Number.NaN)).join(' · ');
  const requests = ['home', 'inventory'].map((n) => String(page(n)?.requests ?? '–')).join(' · ');
  return [jsCell(f, 'home'), jsCell(f, 'inventory'), lcp, requests];
}

const METHOD = [
  '## Method',
  '',
  '- `npm run bench` (infra/bench/src/bench.ts) starts test-mode infrastructure (fresh temp data, free ports;',
  "  Kafka KRaft and mongo-java-server in memory as JVMs, the machine's Redis under a run-only key prefix),",
  '  builds user, notification and gateway with esbuild (infra/cli/src/build.ts) and runs each as its own',
  '  Node process with `LOG_LEVEL` warn. The e-mail worker is not started. Everything is stopped and the',
  "  run's Redis keys deleted at the end. Settings per run are in the table (flags: `--connections`,",
  '  `--seconds`, `--warmup-seconds`, `--events`, `--warmup-events`, `--rate`, `--customers`, `--visits`,',
  '  `--only gateway|pipeline|catalogue|checkout|frontend`).',
  "- **Everything shares the machine's cores**: the load generator (autocannon, in the bench process),",
  '  the services, the gateway, Kafka, Mongo and Redis. The printed table shows the cores each used while',
  '  measured; "others" is the rest of the machine (other jobs, hypervisor steal) from /proc/stat, and',
  '  the runs table shows its peak: well above 0 means the run was disturbed. Figures are for comparing',
  '  runs on the same machine, not for capacity planning.',
  "- **Calibration and the guard** (since 2026-12-02): each row's machine cell carries the machine measured at",
  '  the start of its run (calibration.ts): a fingerprint (CPU, cores, memory, machine-id), a fixed CPU loop',
  "  (median of 5) and one bare Fastify route's rate (20 connections, 3 s). A new row is compared with the",
  '  last row of the same machine, else with the last calibrated row scaled by the calibrations, never with',
  '  an uncalibrated row; the run says which (infra/bench/README.md). A wrong checked answer fails the part.',
  "- **Gateway overhead**: `GET /auth/jwt` with the demo customer's session token (verifies the token,",
  '  reads the user from Mongo), on the user service directly and through the gateway (`/api/auth/jwt`:',
  '  rate limiter — limit raised so it never refuses — and proxy), same load. Both warmed up, then each',
  '  measured in two halves in the order direct, gateway, gateway, direct, so a drift in the rest of the',
  '  machine weighs on both alike. req/s = completed requests / seconds measured; p50/p99 from the merged',
  '  latency histograms (a closed loop of N connections: latency ≈ N / req/s once the server is saturated).',
  '  Failed requests (non-2xx, errors, timeouts) are counted and printed.',
  '- **Event pipeline**: `POST /send/reset` sent to the user service at a steady, open-loop rate after',
  '  unmeasured warm-up events (cold JVMs and JIT are several times slower), rotating the three demo',
  '  accounts, at each `--rate` in turn (50 then 500/s since 2026-11-27: one row per rate; 3,000 events',
  '  at 500/s). The user service gets 10,000 resets per account an hour here: with the default (5) every',
  '  send but the first few was refused and the part measured nothing. Each request writes',
  '  passwordReset and a PasswordResetRequested event in one document write; relay',
  "  → Kafka → notification consumer → BullMQ job `email.<eventId>`. Measured per event: from the event's",
  '  `occurredAt` (stamped by the user service just before its write; read back from the topic afterwards)',
  "  to the ms in the stream id of the job's `added` entry in `<prefix>:email:events` (written by BullMQ's",
  "  add script as it stores the job: Redis's clock, same machine). The HTTP round trip is not in it. The",
  "  Kafka message timestamp (set by the relay's producer) splits it into write → published and",
  '  published → job.',
  "- **Catalogue reads**: `GET /api/product?category=BARS&subcategory=Bar%20Front` with the demo customer's",
  "  token (prices and stock included) beside the gateway's own `/healthz`, same connections, warmed up,",
  '  halves in the order health, products, products, health. The gateway answers it from its own cache',
  '  of catalogue reads (per viewer class and URL, cleared by catalogue events; gateway/src/catalogue-cache.ts),',
  '  so after the first request the catalogue is not asked: what it costs beyond /healthz is the session',
  '  check (verified tokens remembered) and the larger answer. Runs before 2026-11-22 19:19Z proxied every',
  '  request to the catalogue (which answers from its own cache); the 19:19Z run had the gateway cache',
  '  without the remembered tokens.',
  '- **Checkouts**: N new customers (stored with their UserCreated event, as the user service does) sign',
  '  in through the gateway, wait for their first active cart and put 2 of each of two products in it;',
  '  then all N send `POST /api/estimate` at once. Latency is per call, as the client sees it. Afterwards',
  '  the counts of estimates (staff `GET /api/estimate` total_count), checked-out carts (staff',
  "  `GET /api/cart?didCheckOut=true`) and e-mails in the mail catcher (the customers' confirmations and",
  '  the staff notices) are polled until each reaches N (at most 120 s). The e-mail worker runs only here.',
  '- **Frontend budgets** (`--only frontend`): the three frontends are built first (webpack production',
  '  builds, unchanged ones reused: infra/cli/src/frontends.ts) and the gateway serves a temp copy of their',
  '  dist folders (FRONTENDS_DIR, as for `npm start`; shell at `/`, remotes under `/remotes/<name>/`). The',
  '  blank page is `/blank.html`, one `<p>` of text (a page with nothing contentful has no LCP), put into the',
  "  shell's copy so the same @fastify/static route of the same gateway serves it. Headless Chromium",
  '  (/usr/bin/chromium driven by playwright-core, 1280×900, no CPU or network throttling, everything on',
  '  127.0.0.1) opens `/blank.html`, `/` and `/inventory/BARS/Bar%20Front` each in a fresh browser context',
  '  (empty cache and storage: a first visit by a visitor who is not signed in), once unmeasured, then in',
  '  rounds (blank, /, inventory) for `--visits` (5) measured visits each. A visit waits for the load event, a',
  '  rendered element (`h1`; product headings in `main` for the inventory), network idle (500 ms without',
  '  requests) and 500 ms more, then reads the last `largest-contentful-paint` entry (PerformanceObserver,',
  '  `buffered: true`; startTime from navigation start). JS bytes: the bodies of every response Chromium',
  "  loaded as a script, summed per visit, over the wire (Chromium's encoded body size) and each body",
  '  gzipped here with zlib level 6. The gateway answers scripts uncompressed (Content-Encoding identity;',
  '  the printed table says so), so the budgets, which name gzip, are read on the zlib figure and the runs',
  '  table shows "gzip (wire …)"; were the scripts compressed on the wire, the cell would show the wire',
  '  figure alone. KB = 1,024 bytes. The largest scripts are listed with what they are made of: minified',
  '  bytes per npm package through their source maps (fetched from the gateway after the visits). Requests:',
  '  every request the page made (document, scripts, API, images on the S3 host). Medians of the measured',
  '  visits (LCP min–max printed). The "others busy" column does not cover this part (Chromium\'s',
  "  processes would count as others); the machine's load before the run is printed with the table.",
].join('\n');

/** The rows of the runs table already in `file`, oldest first. */
export function recordedRuns(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^\| \d{4}-\d\d-\d\d /.test(line))
    : [];
}

/** Rewrites `file` with this run appended to the runs already recorded there. */
export function writeResults(file: string, r: Results): void {
  const runs = [...recordedRuns(file), ...runRows(r)].slice(-KEEP_RUNS);
  const text = [
    '# Benchmarks',
    '',
    `Figures from \`npm run bench\` on this project's machines; one row per run, newest last (last ${KEEP_RUNS} kept).`,
    '',
    ...RUNS_HEADER,
    ...runs,
    '',
    METHOD,
    '',
  ].join('\n');
  writeFileSync(file, text);
}
