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
import type { Browser, Response } from 'playwright-core';
import { launchHeadlessChromium } from '../chromium';
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

interface PageSpec {
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

export interface FrontendFigures {
  visits: number;
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

/** One first visit in a fresh context: no cache, no cookies or storage, not signed in. */
async function visit(browser: Browser, origin: string, spec: PageSpec): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    const responses: Response[] = [];
    let requests = 0;
    page.on('request', () => {
      requests += 1;
    });
    page.on('response', (res) => {
      responses.push(res);
      if (res.status() >= 400) problems.push(`${res.status()} ${shortUrl(res.url(), origin)}`);
    });
    page.on('requestfailed', (req) =>
      problems.push(`failed ${shortUrl(req.url(), origin)}: ${req.failure()?.errorText ?? ''}`),
    );
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    await page.goto(`${origin}${spec.path}`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForSelector(spec.ready, { state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    await page.waitForTimeout(SETTLE_MS);
    const lcp = (await page.evaluate(READ_LCP)) as Visit['lcp'];
    const scriptResponses = responses.filter((r) => r.request().resourceType() === 'script');
    const scripts = await Promise.all(scriptResponses.map((r) => scriptFigure(r, origin)));
    return { requests, scripts, lcp, problems };
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
  const persistent = await launchHeadlessChromium(profile);
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
    const encodings = [
      ...new Set([...byPage.values()].flatMap((vs) => vs.flatMap((v) => v.scripts.map((s) => s.encoding)))),
    ];
    return {
      visits,
      viewport: `${VIEWPORT.width}×${VIEWPORT.height}`,
      compressed: encodings.some((e) => e !== 'identity'),
      encodings,
      pages,
    };
  } finally {
    await persistent.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

export const kb = (bytes: number) => (bytes / KB).toFixed(1);
