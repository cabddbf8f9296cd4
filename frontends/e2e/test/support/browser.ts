import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChromiumBuild, launchHeadlessChromium } from '@decor/stack/tools';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { checkAccessibilityIn, checkScreen } from './a11y';

/** Screenshots of the journeys (git-ignored). */
export const OUTPUT_DIR = path.join(__dirname, '..', '..', 'test-output');

export interface RunningBrowser {
  browser: Browser;
  /** A fresh context (own storage, own viewport) whose page errors are collected for the test to check. */
  newPage(opts?: {
    width: number;
    height: number;
  }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  close(): Promise<void>;
}

/** One headless Chromium for the file; each journey gets its own context. */
export async function launchBrowser(
  baseURL: string,
  build: ChromiumBuild = 'shell',
): Promise<RunningBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'decor-e2e-'));
  const persistent = await launchHeadlessChromium(profile, { browser: build });
  const browser = persistent.browser();
  if (!browser) throw new Error('chromium: no browser behind the persistent context');
  const contexts: BrowserContext[] = [];
  return {
    browser,
    newPage: async (viewport = { width: 1280, height: 900 }) => {
      const context = await browser.newContext({ baseURL, viewport, locale: 'en-US' });
      contexts.push(context);
      checkAccessibilityIn(context, baseURL);
      context.setDefaultTimeout(15_000);
      context.on('page', awaitHydrationOnNavigation);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
      });
      recordFailedApiCalls(page, errors);
      return { page, context, errors };
    },
    close: async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await persistent.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The page's API calls the server failed (5xx, or no answer), as `api: …` lines beside its errors, so
 * a journey that fails on a screen saying "unavailable" also says which call failed and how.
 */
function recordFailedApiCalls(page: Page, errors: string[]): void {
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('response', (res) => {
    if (res.status() < 500 || !isApi(res.url())) return;
    const call = `api: ${res.request().method()} ${res.url()} answered ${res.status()}`;
    res.text().then(
      (body) => errors.push(`${call}: ${body.slice(0, 300)}`),
      () => errors.push(call),
    );
  });
  page.on('requestfailed', (req) => {
    if (isApi(req.url()))
      errors.push(`api: ${req.method()} ${req.url()} failed: ${req.failure()?.errorText}`);
  });
}

/** Whether React owns the page: a server-rendered page (its data in #decor-state) is hydrated. */
const HYDRATED = () => {
  if (!document.getElementById('decor-state')) return true;
  // Any child: React's hoisted preload links lead the markup and are never hydrated in place.
  const children = [...(document.getElementById('root')?.children ?? [])];
  return children.some((child) => Object.keys(child).some((key) => key.startsWith('__reactFiber')));
};

/**
 * A server-rendered public page is painted before any of its scripts run (the shell's entry starts
 * after the first paint), so its load event no longer means React has taken it over, and a click
 * before that is lost, as for any visitor who clicks while the page hydrates. Here `goto` and
 * `reload` return once React owns the page, as a person waits for it to respond.
 */
function awaitHydrationOnNavigation(page: Page): void {
  for (const name of ['goto', 'reload'] as const) {
    const navigate = page[name].bind(page) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(page, {
      [name]: async (...args: unknown[]) => {
        const response = await navigate(...args);
        await page.waitForFunction(HYDRATED);
        return response;
      },
    });
  }
}

/**
 * Saves a screenshot of the journey under frontends/e2e/test-output/ (the whole page unless
 * `fullPage: false`, e.g. for a full-screen overlay), after antd's and the viewer's 0.3 s transitions,
 * then checks the screen with axe (`expectAccessible` of ./a11y: fails on a serious or critical
 * violation; pages outside the product, like the QuickBooks emulator's, are not checked).
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  await page.waitForTimeout(350);
  await page.screenshot({ path: file, fullPage });
  await checkScreen(page, name, { settled: true });
  return file;
}
