import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';

/** Impacts that fail a journey; moderate and minor findings are reported by axe but tolerated. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** One failing axe finding, readable in a test failure. */
export interface A11yViolation {
  rule: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending elements (at most five) with axe's summary of what is wrong. */
  nodes: string[];
}

/**
 * axe-core's own script, put into a document once (the next check of the same document finds
 * `window.axe`); axe talks only to frames of the page's own origin, as @axe-core/playwright set it.
 */
const AXE_SCRIPT = `${axe.source};axe.configure({ allowedOrigins: ['<same_origin>'] });`;

/**
 * The run's options: only violations are collected (axe then skips gathering every passing node);
 * frames are not entered (the product's only one, the card frame, is the payments provider's, of
 * another origin, which axe's same-origin setting never checked either). Also on:
 * label-content-name-mismatch (experimental in axe 4.14), a control's accessible name must contain
 * its visible text, so a voice user saying what they see finds it.
 */
const RUN_OPTIONS: axe.RunOptions = {
  resultTypes: ['violations'],
  iframes: false,
  rules: { 'label-content-name-mismatch': { enabled: true } },
};

/** axe.run in the page, its violations as A11yViolation; undefined when the document has no axe yet. */
function runInPage({
  exclude,
  options,
}: {
  exclude: string[];
  options: axe.RunOptions;
}): Promise<A11yViolation[]> | undefined {
  const inPage = (window as unknown as { axe?: typeof axe }).axe;
  if (!inPage) return undefined;
  return inPage.run(exclude.length > 0 ? { exclude } : document, options).then((r) =>
    r.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    })),
  );
}

/**
 * Runs axe-core (every rule axe runs by default: WCAG 2.x A/AA and best practices, plus the name
 * containing the visible label) on the page as it is now and returns its serious and critical
 * violations. `exclude` takes CSS selectors of parts that are not the product's (none today).
 * axe is put into a document on its first check only: compiling its 600 kB for every check (as
 * @axe-core/playwright does, twice) cost more than the rules themselves.
 */
export async function axeViolations(page: Page, { exclude = [] as string[] } = {}): Promise<A11yViolation[]> {
  const args = { exclude, options: RUN_OPTIONS };
  let found = await page.evaluate(runInPage, args);
  if (!found) {
    await page.evaluate(AXE_SCRIPT);
    found = await page.evaluate(runInPage, args);
  }
  if (!found) throw new Error(`axe could not be put into ${page.url()}`);
  return found.filter((v) => FAILING_IMPACTS.has(v.impact));
}

/**
 * Fails (throws) when axe finds a serious or critical violation on the page as it is now, listing
 * each one (rule, impact, help text, elements). `label` names the screen in the failure message.
 * Call it once the screen has settled (e.g. after the text a journey waits for is visible);
 * `screenshot()` of ./browser calls it for every screen a journey photographs.
 */
export async function expectAccessible(
  page: Page,
  label: string,
  opts: { exclude?: string[] } = {},
): Promise<void> {
  const found = await axeViolations(page, opts);
  if (found.length === 0) return;
  const list = found
    .map((v) => `  • ${v.rule} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `      ${n}`).join('\n')}`)
    .join('\n');
  const message = `accessibility: ${found.length} serious/critical axe violation(s) on ${label} (${page.url()}):\n${list}`;
  // A11Y_REPORT_ONLY=1 lists every screen's findings in one run instead of stopping at the first.
  if (process.env.A11Y_REPORT_ONLY === '1') {
    process.stderr.write(`${message}\n`);
    return;
  }
  throw new Error(message);
}

/** The product's origin for each journey context (set by ./browser): pages elsewhere (the QuickBooks emulator) are not checked. */
const productOrigins = new WeakMap<BrowserContext, string>();
/** The paths (or named states) each page has already been checked on by `checkScreenOnce`. */
const checkedPaths = new WeakMap<Page, Set<string>>();

export function checkAccessibilityIn(context: BrowserContext, baseURL: string): void {
  productOrigins.set(context, new URL(baseURL).origin);
}

/** Whether `page` shows the product (its origin is the product's), i.e. a page of ours to check. */
export function showsProduct(page: Page): boolean {
  const origin = productOrigins.get(page.context());
  if (!origin) return false;
  try {
    return new URL(page.url()).origin === origin;
  } catch {
    return false;
  }
}

/** antd's and the viewer's transitions (fading text would read as low contrast). */
const SETTLE_MS = 350;
/** The longest wait for transitions that began late (a chunk's button rendered midway, under load). */
const ANIMATIONS_MS = 3_000;

/**
 * Waits SETTLE_MS, then until no finite animation or transition runs (spinners loop for ever and are
 * left alone): under load a control rendered late is still fading from white to its colour when a
 * fixed wait ends, and axe reads that frame as low contrast (a primary button at 3.46:1 in a CI run).
 */
async function settle(page: Page, waited: boolean): Promise<void> {
  if (!waited) await page.waitForTimeout(SETTLE_MS);
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) =>
              a.playState !== 'running' ||
              a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { timeout: ANIMATIONS_MS, polling: 'raf' },
    )
    .catch(() => {}); // still moving after that: check the page as it is
}

/**
 * `expectAccessible` the first time a journey's page shows a path of the product, or the first time
 * `what` (e.g. 'the login modal') is on screen (called by the `visible` and `signIn` helpers of ./ui,
 * so every screen a journey waits on is checked once, new journeys included).
 */
export async function checkScreenOnce(page: Page, what?: string): Promise<void> {
  if (page.isClosed() || !showsProduct(page)) return;
  const key = what ?? decodeURI(new URL(page.url()).pathname);
  const seen = checkedPaths.get(page) ?? new Set<string>();
  checkedPaths.set(page, seen);
  if (seen.has(key)) return;
  seen.add(key);
  await settle(page, false);
  await expectAccessible(page, key);
}

/**
 * `expectAccessible` on a screen of the product, after the transitions (pages elsewhere are skipped);
 * `settled` when the caller has just waited for them (screenshot()).
 */
export async function checkScreen(page: Page, label: string, { settled = false } = {}): Promise<void> {
  if (page.isClosed() || !showsProduct(page)) return;
  await settle(page, settled);
  await expectAccessible(page, label);
}
