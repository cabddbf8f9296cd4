/**
 * Frontend budgets (issue 4): what a visitor's first visit to `/` and to the Bar Front inventory page
 * costs — JavaScript bytes (gzip), requests, and Largest Contentful Paint in headless Chromium — beside
 * a blank page served by the same gateway. Each visit is a fresh browser context (empty cache, no
 * session); figures are medians of the measured visits after one unmeasured visit per page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchHeadlessChromium } from '@decor/stack/tools';
import type { Browser, Page, Response } from 'playwright-core';
import { percentile } from './stats';

const VIEWPORT = { width: 1280, height: 900 };
/** After network idle (no request for 500 ms), before LCP is read: late paints still land. */
const SETTLE_MS = 500;
const KB = 1024;
/** Largest scripts per budgeted page whose contents are named (from their source maps). */
export const LABELLED_SCRIPTS = 6;

/** Written into the shell's dist copy the bench gateway serves (see stack.ts), so @fastify/static serves it. */
export const BLANK_PAGE = {
  file: 'blank.html',
  // One line of text: a page with nothing contentful has no LCP entry at all.
  html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blank</title></head><body><p>Blank page</p></body></html>\n',
};

export interface PageSpec {
  name: string;
  path: string;
  /** Budget for the page's JavaScript, gzip, KB. */
  targetKb?: number;
  /** Must be on the page once it is idle: a page that failed to render would give meaningless figures. */
  ready: string;
}

export const FRONTEND_PAGES: readonly PageSpec[] = [
  { name: 'blank', path: `/${BLANK_PAGE.file}`, ready: 'p' },
  { name: 'home', path: '/', targetKb: 300, ready: 'h1' },
  { name: 'inventory', path: '/inventory/BARS/Bar%20Front', targetKb: 450, ready: 'main li h2' },
];

export interface ScriptFigure {
  /** Path (and query) on the gateway, or the whole URL for another host. */
  url: string;
  /** Content-Encoding the gateway answered with ('identity' when none). */
  encoding: string;
  /** Body bytes as they came over the wire (Chromium's encoded size). */
  wireBytes: number;
  /** Decoded body bytes. */
  rawBytes: number;
  /** The decoded body gzipped here with zlib's default level (6). */
  gzipBytes: number;
  /** What the script is made of (from its source map), e.g. "antd 64 %, rc-table 12 %"; set for the largest. */
  contents?: string;
}

export interface PageFigures {
  name: string;
  path: string;
  targetKb?: number;
  /** Medians over the measured visits. */
  wireJsBytes: number;
  gzipJsBytes: number;
  rawJsBytes: number;
  scripts: number;
  requests: number;
  lcpMs: number;
  lcpMinMs: number;
  lcpMaxMs: number;
  /** The LCP element of the median visit, e.g. `img src=…` or `h1 "…"`. */
  lcpElement: string;
  /** The scripts of the last visit, largest (gzip) first. */
  largestScripts: ScriptFigure[];
  /** Page errors, failed requests and HTTP errors seen on any visit (should be none). */
  problems: string[];
}

/** One page on the phone profile (medians over the cold visits). */
export interface MobilePageFigures {
  name: string;
  path: string;
  lcpMs: number;
  lcpMinMs: number;
  lcpMaxMs: number;
  lcpElement: string;
  fcpMs: number;
  cls: number;
  tbtMs: number;
  wireJsBytes: number;
  requests: number;
  problems: string[];
}

export interface MobileFigures {
  visits: number;
  profile: string;
  pages: MobilePageFigures[];
  /** Loud lines: a budget (LCP ≤ 2 s, CLS ≤ 0.05) exceeded. */
  overBudget: string[];
}

export interface FrontendFigures {
  visits: number;
  /** The public pages on Lighthouse's mobile profile (issue 17). */
  mobile?: MobileFigures;
  viewport: string;
  /** Whether the gateway compressed any script (Content-Encoding other than identity). */
  compressed: boolean;
  encodings: string[];
  pages: PageFigures[];
}

interface Visit {
  requests: number;
  scripts: ScriptFigure[];
  lcp: { ms: number; element: string } | null;
  problems: string[];
}

/** Runs in the page (a string: infra is compiled without the DOM types). */
const READ_LCP = `new Promise((resolve) => {
  let last = null;
  const observer = new PerformanceObserver((list) => {
    const entries = list.getEntries();
    if (entries.length > 0) last = entries[entries.length - 1];
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => {
    const pending = observer.takeRecords();
    if (pending.length > 0) last = pending[pending.length - 1];
    observer.disconnect();
    if (!last) return resolve(null);
    const el = last.element;
    let element = last.url ? 'img ' + last.url : '';
    if (el) {
      const tag = el.tagName.toLowerCase();
      const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
      element = tag + (last.url ? ' ' + last.url : text ? ' "' + text + '"' : '');
    }
    resolve({ ms: last.startTime, element });
  }, 200);
})`;

function shortUrl(url: string, origin: string): string {
  return url.startsWith(origin) ? url.slice(origin.length) : url;
}

async function scriptFigure(res: Response, origin: string): Promise<ScriptFigure> {
  const [sizes, body, headers] = await Promise.all([res.request().sizes(), res.body(), res.allHeaders()]);
  return {
    url: shortUrl(res.url(), origin),
    encoding: headers['content-encoding'] ?? 'identity',
    wireBytes: sizes.responseBodySize,
    rawBytes: body.length,
    gzipBytes: gzipSync(body).length,
  };
}

/** What a visit counts as it loads: its requests, its scripts' responses and what went wrong. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  const scripts: Response[] = [];
  let requests = 0;
  page.on('request', () => {
    requests += 1;
  });
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.push(res);
    if (res.status() >= 400) problems.push(`${res.status()} ${shortUrl(res.url(), origin)}`);
  });
  page.on('requestfailed', (req) =>
    problems.push(`failed ${shortUrl(req.url(), origin)}: ${req.failure()?.errorText ?? ''}`),
  );
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { problems, scripts, requests: () => requests };
}

/** One first visit in a fresh context: no cache, no cookies or storage, not signed in. */
async function visit(browser: Browser, origin: string, spec: PageSpec): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const watched = watch(page, origin);
    await page.goto(`${origin}${spec.path}`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForSelector(spec.ready, { state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    await page.waitForTimeout(SETTLE_MS);
    const lcp = (await page.evaluate(READ_LCP)) as Visit['lcp'];
    const scripts = await Promise.all(watched.scripts.map((r) => scriptFigure(r, origin)));
    return { requests: watched.requests(), scripts, lcp, problems: watched.problems };
  } finally {
    await context.close();
  }
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one source-map segment (base64 VLQ) into its fields. */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = BASE64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** The npm package a webpack source path belongs to, or 'own code'. */
function packageOf(source: string): string {
  const at = source.lastIndexOf('node_modules/');
  if (at < 0) return source.includes('webpack/runtime') ? 'webpack runtime' : 'own code';
  const parts = source.slice(at + 'node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? source);
}

/**
 * Minified bytes of a script per npm package, attributed through its source map (each mapped segment
 * counts up to the next one); unmapped bytes are left out. Undefined when the map cannot be read.
 */
async function scriptContents(scriptUrl: string): Promise<string | undefined> {
  try {
    const [script, map] = await Promise.all([
      fetch(scriptUrl).then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status))))),
      fetch(`${scriptUrl}.map`).then((r) =>
        r.ok ? (r.json() as Promise<{ sources: string[]; mappings: string }>) : Promise.reject(new Error()),
      ),
    ]);
    const bytes = new Map<string, number>();
    const lines = script.split('\n');
    let sourceIndex = 0;
    map.mappings.split(';').forEach((line, i) => {
      const lineLength = lines[i]?.length ?? 0;
      let column = 0;
      let open: { column: number; source: number } | undefined;
      const close = (end: number) => {
        if (!open) return;
        const name = packageOf(map.sources[open.source] ?? '');
        bytes.set(name, (bytes.get(name) ?? 0) + Math.max(0, end - open.column));
      };
      for (const segment of line.split(',')) {
        if (!segment) continue;
        const [dc = 0, ds] = decodeSegment(segment);
        column += dc;
        close(column);
        if (ds === undefined) open = undefined;
        else {
          sourceIndex += ds;
          open = { column, source: sourceIndex };
        }
      }
      close(lineLength);
    });
    const total = [...bytes.values()].reduce((a, b) => a + b, 0);
    if (total === 0) return undefined;
    return [...bytes.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, n]) => `${name} ${Math.round((100 * n) / total)} %`)
      .join(', ');
  } catch {
    return undefined;
  }
}

/**
 * Lighthouse's mobile profile (issue 17): 4× CPU slowdown, 150 ms round trip, 1.6 Mbit/s down
 * (750 kbit/s up), a 412×823 phone screen, cold cache. Applied with DevTools throttling, per request.
 */
export const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1_000_000) / 8,
  uploadBytesPerSecond: (750 * 1_000) / 8,
};
export const MOBILE_BUDGET = { lcpMs: 2000, cls: 0.05 };

/** The public pages on the phone profile; `:product` is a Bar Front product's id. */
export const MOBILE_PAGES: readonly PageSpec[] = [
  { name: 'blank', path: `/${BLANK_PAGE.file}`, ready: 'p' },
  { name: 'home', path: '/', ready: 'h1' },
  { name: 'gallery', path: '/gallery', ready: 'h1' },
  { name: 'inventory', path: '/inventory/BARS/Bar%20Front', ready: 'main li h2' },
  { name: 'product', path: '/inventory/BARS/Bar%20Front/:product', ready: 'main h1' },
  { name: 'terms', path: '/tos', ready: 'h1' },
];

/** Installed before any script of the page: layout shifts and long tasks from the very start. */
const OBSERVE_FROM_START = `(() => {
  const w = window;
  w.__cls = 0; w.__longTasks = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) w.__cls += e.value; })
      .observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => { for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
})()`;

/** FCP, CLS (all shifts summed: at least the session-window figure) and TBT after FCP. */
const READ_PAINTS = `(() => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const fcpMs = fcp ? fcp.startTime : NaN;
  let tbt = 0;
  for (const [start, duration] of window.__longTasks || []) if (start >= fcpMs) tbt += Math.max(0, duration - 50);
  return { fcpMs, cls: window.__cls || 0, tbtMs: tbt };
})()`;

interface MobileVisit {
  lcp: { ms: number; element: string } | null;
  fcpMs: number;
  cls: number;
  tbtMs: number;
  wireJsBytes: number;
  requests: number;
  problems: string[];
}

export async function visitAsPhone(browser: Browser, origin: string, spec: PageSpec): Promise<MobileVisit> {
  const context = await browser.newContext({
    viewport: MOBILE.viewport,
    deviceScaleFactor: MOBILE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  try {
    await context.addInitScript(OBSERVE_FROM_START);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: MOBILE.latencyMs,
      downloadThroughput: MOBILE.downloadBytesPerSecond,
      uploadThroughput: MOBILE.uploadBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
    const { scripts, problems, requests } = watch(page, origin);
    await page.goto(`${origin}${spec.path}`, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForSelector(spec.ready, { state: 'visible', timeout: 60_000 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    await page.waitForTimeout(SETTLE_MS);
    const lcp = (await page.evaluate(READ_LCP)) as MobileVisit['lcp'];
    const paints = (await page.evaluate(READ_PAINTS)) as { fcpMs: number; cls: number; tbtMs: number };
    const sizes = await Promise.all(
      scripts.map((r) =>
        r
          .request()
          .sizes()
          .then((x) => x.responseBodySize),
      ),
    );
    return { lcp, ...paints, wireJsBytes: sum(sizes), requests: requests(), problems };
  } finally {
    await context.close();
  }
}

/** The public pages on the phone profile, `visits` cold visits each (after one unmeasured round). */
async function measureMobile(
  browser: Browser,
  origin: string,
  visits: number,
  log: (line: string) => void,
): Promise<MobileFigures> {
  const answer = await fetch(`${origin}/api/product?category=BARS&subcategory=Bar%20Front&limit=1`);
  const first = ((await answer.json()) as { result: { id: string }[] }).result[0];
  const pages = MOBILE_PAGES.map((p) => ({
    ...p,
    path: p.path.replace(':product', encodeURIComponent(first?.id ?? 'none')),
  }));
  log(`frontend: phone profile (4× CPU, 150 ms RTT, 1.6 Mbit/s), ${visits} cold visits per page …`);
  for (const spec of pages) await visitAsPhone(browser, origin, spec);
  const byPage = new Map<string, MobileVisit[]>(pages.map((p) => [p.name, []]));
  for (let round = 0; round < visits; round++) {
    for (const spec of pages) byPage.get(spec.name)?.push(await visitAsPhone(browser, origin, spec));
  }
  const figures = pages.map((spec): MobilePageFigures => {
    const vs = byPage.get(spec.name) ?? [];
    const lcps = vs.flatMap((v) => (v.lcp ? [v.lcp] : []));
    const lcpMs = median(lcps.map((l) => l.ms));
    return {
      name: spec.name,
      path: spec.path,
      lcpMs,
      lcpMinMs: Math.min(...lcps.map((l) => l.ms)),
      lcpMaxMs: Math.max(...lcps.map((l) => l.ms)),
      lcpElement: lcps.find((l) => l.ms === lcpMs)?.element ?? 'none reported',
      fcpMs: median(vs.map((v) => v.fcpMs)),
      cls: median(vs.map((v) => v.cls)),
      tbtMs: median(vs.map((v) => v.tbtMs)),
      wireJsBytes: median(vs.map((v) => v.wireJsBytes)),
      requests: median(vs.map((v) => v.requests)),
      problems: [...new Set(vs.flatMap((v) => v.problems))],
    };
  });
  const overBudget = figures
    .filter((p) => p.name !== 'blank')
    .flatMap((p) => [
      ...(!(p.lcpMs <= MOBILE_BUDGET.lcpMs)
        ? [`${p.path}: LCP ${Math.round(p.lcpMs)} ms is OVER the ${MOBILE_BUDGET.lcpMs} ms budget`]
        : []),
      ...(!(p.cls <= MOBILE_BUDGET.cls)
        ? [`${p.path}: CLS ${p.cls.toFixed(3)} is OVER ${MOBILE_BUDGET.cls}`]
        : []),
    ]);
  return {
    visits,
    profile: `${MOBILE.viewport.width}×${MOBILE.viewport.height}, ${MOBILE.cpuSlowdown}× CPU, ${MOBILE.latencyMs} ms RTT, 1.6 Mbit/s down, cold cache`,
    pages: figures,
    overBudget,
  };
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: readonly number[]) => percentile(xs, 50);

function pageFigures(spec: PageSpec, visits: readonly Visit[]): PageFigures {
  const lcps = visits.flatMap((v) => (v.lcp ? [v.lcp] : []));
  const lcpMs = median(lcps.map((l) => l.ms));
  const last = visits[visits.length - 1];
  return {
    name: spec.name,
    path: spec.path,
    targetKb: spec.targetKb,
    wireJsBytes: median(visits.map((v) => sum(v.scripts.map((s) => s.wireBytes)))),
    gzipJsBytes: median(visits.map((v) => sum(v.scripts.map((s) => s.gzipBytes)))),
    rawJsBytes: median(visits.map((v) => sum(v.scripts.map((s) => s.rawBytes)))),
    scripts: median(visits.map((v) => v.scripts.length)),
    requests: median(visits.map((v) => v.requests)),
    lcpMs,
    lcpMinMs: Math.min(...lcps.map((l) => l.ms)),
    lcpMaxMs: Math.max(...lcps.map((l) => l.ms)),
    lcpElement: lcps.find((l) => l.ms === lcpMs)?.element ?? 'none reported',
    largestScripts: [...(last?.scripts ?? [])].sort((a, b) => b.gzipBytes - a.gzipBytes),
    problems: [...new Set(visits.flatMap((v) => v.problems))],
  };
}

export async function measureFrontendBudgets(
  gatewayUrl: string,
  visits: number,
  log: (line: string) => void,
): Promise<FrontendFigures> {
  const profile = mkdtempSync(path.join(tmpdir(), 'decor-bench-chromium-'));
  const persistent = await launchHeadlessChromium(profile, { browser: 'full' });
  try {
    const browser = persistent.browser();
    if (!browser) throw new Error('chromium: no browser behind the persistent context');
    const origin = new URL(gatewayUrl).origin;
    log(`frontend: one unmeasured visit per page, then ${visits} rounds (blank, /, inventory) …`);
    for (const spec of FRONTEND_PAGES) await visit(browser, origin, spec);
    const byPage = new Map<string, Visit[]>(FRONTEND_PAGES.map((p) => [p.name, []]));
    // Rounds over the pages rather than page after page: a drift on the machine weighs on all alike.
    for (let round = 0; round < visits; round++) {
      for (const spec of FRONTEND_PAGES) byPage.get(spec.name)?.push(await visit(browser, origin, spec));
    }
    const pages = FRONTEND_PAGES.map((spec) => pageFigures(spec, byPage.get(spec.name) ?? []));
    // What the largest scripts of the budgeted pages are made of (not part of any visit).
    for (const p of pages.filter((x) => x.targetKb)) {
      for (const s of p.largestScripts.slice(0, LABELLED_SCRIPTS)) {
        s.contents = await scriptContents(s.url.startsWith('/') ? `${origin}${s.url}` : s.url);
      }
    }
    const mobile = await measureMobile(browser, origin, visits, log);
    const encodings = [
      ...new Set([...byPage.values()].flatMap((vs) => vs.flatMap((v) => v.scripts.map((s) => s.encoding)))),
    ];
    return {
      visits,
      viewport: `${VIEWPORT.width}×${VIEWPORT.height}`,
      compressed: encodings.some((e) => e !== 'identity'),
      encodings,
      pages,
      mobile,
    };
  } finally {
    await persistent.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

export const kb = (bytes: number) => (bytes / KB).toFixed(1);
