/**
 * The set-up every browser test file shares: before the file, the frontends built (or reused), the
 * whole product started (with accounting-sync and the QuickBooks emulator when asked) and one headless
 * Chromium launched against its gateway; after each test, the page errors of the pages it opened fail
 * it; after the file, the browser closed and the product stopped.
 */
import type { ChromiumBuild } from '@decor/stack/tools';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type RunningBrowser, screenshot } from './browser';
import {
  type RunningProduct,
  type RunningQuickBooksProduct,
  startProduct,
  startProductWithQuickBooks,
} from './product';
import { screenText, signInFully } from './ui';

/** The first page load may wait for the gateway to read the built frontends from disk. */
export const FIRST_LOAD_MS = 60_000;

interface Options {
  /** The product with accounting-sync and the QuickBooks emulator (QBO_REDIRECT_URI = <gateway>/callback). */
  quickBooks?: boolean;
  /** Names the screenshots the fixture takes (e.g. a failed sign-in), as `<name>-sign-in-<who>`. */
  name?: string;
  /** The time the start may take (builds, services, browser) on a busy machine. */
  startTimeoutMs?: number;
  /** Full Chromium instead of the headless shell, for a file that opens a PDF (the shell has no viewer). */
  browser?: ChromiumBuild;
}

export interface BrowserStack<P> {
  /**
   * The running product. The object is the file's from the start and filled in before the first test,
   * so a file may destructure it at the top; its fields are undefined before then.
   */
  product: P;
  /** The file's Chromium, filled in the same way; pages opened on it directly are not checked for errors. */
  chromium: RunningBrowser;
  /** A fresh context and page whose uncaught page errors fail the test that opened it. */
  newPage(viewport?: {
    width: number;
    height: number;
  }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /** `newPage`'s page alone. */
  open(viewport?: { width: number; height: number }): Promise<Page>;
  /** A fresh page at `path`, signed in as `who` (a screenshot when the sign-in fails). */
  signedInPage(who: { email: string; password: string; displayName: string }, path?: string): Promise<Page>;
  /** For a journey's `.catch`: saves a screenshot of the page as `name`, then fails with the error. */
  fail(page: Page, name: string): (err: unknown) => Promise<never>;
}

export function useBrowserStack(
  options: Options & { quickBooks: true },
): BrowserStack<RunningQuickBooksProduct>;
export function useBrowserStack(options?: Options & { quickBooks?: false }): BrowserStack<RunningProduct>;
export function useBrowserStack({
  quickBooks = false,
  name = 'journey',
  startTimeoutMs = 240_000,
  browser = 'shell',
}: Options = {}): BrowserStack<RunningProduct | RunningQuickBooksProduct> {
  const product = {} as RunningProduct | RunningQuickBooksProduct;
  const chromium = {} as RunningBrowser;
  const pageErrors: string[][] = [];
  /** Each page's errors and failed API calls (./browser), for `fail` to print. */
  const errorsOf = new WeakMap<Page, string[]>();
  const log = (line: string) => process.stderr.write(`${line}\n`);

  let starting: Promise<void> | undefined;
  beforeAll(() => {
    log(`browser stack: starting, ${process.uptime().toFixed(1)} s into the worker`);
    starting = (async () => {
      Object.assign(product, quickBooks ? await startProductWithQuickBooks(log) : await startProduct(log));
      const since = Date.now();
      Object.assign(chromium, await launchBrowser(product.url, browser));
      log(`chromium: launched (${Date.now() - since} ms)`);
    })();
    return starting;
  }, startTimeoutMs);

  // A start that outran its time goes on: it is awaited and stopped here, not left running (its
  // servers, consumers and timers) after the file.
  afterAll(async () => {
    await starting?.catch(() => {});
    const since = Date.now();
    await chromium.close?.();
    await product.stop?.();
    log(`product and chromium stopped (${Date.now() - since} ms)`);
  }, startTimeoutMs);

  afterEach(() => {
    // Uncaught errors in the page fail the journey that caused them.
    const errors = pageErrors.splice(0).flat();
    expect(errors.filter((e) => e.startsWith('page error'))).toEqual([]);
  });

  const fail = (page: Page, shot: string) => async (err: unknown) => {
    await screenshot(page, shot).catch(() => {});
    // CI keeps the log, not the screenshot: say what the screen showed, and which calls failed.
    const shown = await screenText(page).catch((e: Error) => `unreadable (${e.message})`);
    const calls = (errorsOf.get(page) ?? []).filter((e) => e.startsWith('api: '));
    if (err instanceof Error) {
      const seen = `\nThe screen at ${page.url()}: ${shown}${calls.map((c) => `\n${c}`).join('')}`;
      err.message += seen;
      // Jest prints the stack, which holds the message as it was thrown.
      err.stack = err.stack?.replace(/\n\s+at /, `${seen}$&`);
    }
    throw err;
  };

  const newPage: BrowserStack<RunningProduct>['newPage'] = async (viewport) => {
    const opened = await chromium.newPage(viewport);
    pageErrors.push(opened.errors);
    errorsOf.set(opened.page, opened.errors);
    return opened;
  };
  const open = async (viewport?: { width: number; height: number }) => (await newPage(viewport)).page;

  return {
    product,
    chromium,
    newPage,
    open,
    fail,
    signedInPage: async (who, path = '/') => {
      const page = await open();
      await page.goto(path, { timeout: FIRST_LOAD_MS });
      await signInFully(page, who).catch(fail(page, `${name}-sign-in-${who.displayName}`));
      return page;
    },
  };
}
