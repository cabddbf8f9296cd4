/**
 * The public pages come rendered by the server (issue 17): each one's HTML holds its main content
 * before any script runs (checked with JavaScript off), links are plain links, the store's data rides
 * in a JSON script element (no inline code), and the browser hydrates that HTML as it is: the
 * server's elements stay in place, and React reports no mismatch (no console error or warning, no
 * page error).
 */
import type { Page } from 'playwright-core';
import { launchBrowser, type RunningBrowser } from './support/browser';
import { type RunningProduct, startProduct } from './support/product';
import { visible } from './support/ui';

let product: RunningProduct;
let chromium: RunningBrowser;
/** What the tests read of the catalogue's answer. */
interface Product {
  id: string;
  name: string;
  description: string;
}
let bars: Product[];

beforeAll(async () => {
  product = await startProduct((line) => process.stderr.write(`${line}\n`));
  chromium = await launchBrowser(product.url);
  const list = await fetch(`${product.api}/product?category=BARS&subcategory=Bar%20Front&order=name:ASC`);
  bars = ((await list.json()) as { result: Product[] }).result;
}, 480_000);

afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

interface PublicPage {
  path: string;
  /** Text of the page's heading (level 1). */
  heading: () => string | RegExp;
  /** Further text the content must hold. */
  text: () => string[];
}

const PAGES: PublicPage[] = [
  {
    path: '/',
    heading: () => 'Decor that makes the evening',
    text: () => ['About us', 'What sets us apart'],
  },
  { path: '/gallery', heading: () => 'Gallery', text: () => [] },
  {
    path: '/tos',
    heading: () => 'Privacy Policy and End User License Agreement',
    text: () => ['End User License Agreement'],
  },
  {
    path: '/inventory/BARS/Bar%20Front',
    heading: () => /Bar Front/,
    text: () => bars.map((p) => p.name),
  },
  {
    path: '/inventory/BARS/Bar%20Front/:first',
    heading: () => (bars[0] as Product).name,
    text: () => [(bars[0] as Product).description.split('\n')[0] as string],
  },
];

const pathOf = (p: PublicPage) => p.path.replace(':first', encodeURIComponent((bars[0] as Product).id));

it.each(PAGES.map((p) => [p.path, p] as const))(
  '%s: the HTML holds the content, readable with JavaScript off',
  async (_path, publicPage) => {
    expect(bars.length).toBeGreaterThan(0);
    const answer = await fetch(`${product.url}${pathOf(publicPage)}`, { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    // The data as JSON, not code; every other script is a same-origin file.
    expect(html).toMatch(/<script type="application\/json" id="decor-state">/);
    for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      if (!attributes?.includes('application/json')) expect(body?.trim()).toBe('');
    }

    const context = await chromium.browser.newContext({
      baseURL: product.url,
      javaScriptEnabled: false,
      viewport: { width: 412, height: 823 },
    });
    try {
      const page = await context.newPage();
      await page.goto(pathOf(publicPage));
      await page.getByRole('heading', { level: 1, name: publicPage.heading() }).first().waitFor();
      const main = page.getByRole('main');
      for (const text of publicPage.text()) await main.getByText(text).first().waitFor();
      // The top bar's links work without scripts.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gallery' }).click();
      await page.waitForURL('**/gallery');
      await page.getByRole('heading', { level: 1, name: 'Gallery' }).waitFor();
    } finally {
      await context.close();
    }
  },
);

/** Marks the server's <main> before any script runs, to tell hydration from a fresh client render. */
async function markServerMain(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { __serverMain: Element | null }).__serverMain = document.getElementById('main');
    });
  });
}

it.each(PAGES.map((p) => [p.path, p] as const))(
  '%s: hydrates the server HTML with no mismatch reported',
  async (_path, publicPage) => {
    const { page, errors } = await chromium.newPage({ width: 412, height: 823 });
    const warnings: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(`${msg.type()}: ${msg.text()}`);
    });
    await markServerMain(page);
    await page.goto(pathOf(publicPage));
    // Hydrated: the Login button opens its dialog (React's handlers are attached).
    await visible(page.getByRole('heading', { level: 1, name: publicPage.heading() }).first());
    await page.getByRole('button', { name: 'Login' }).click();
    await visible(page.getByRole('dialog'));
    const kept = await page.evaluate(
      () =>
        (window as unknown as { __serverMain: Element | null }).__serverMain ===
        document.getElementById('main'),
    );
    expect(kept).toBe(true);
    expect([...errors, ...warnings]).toEqual([]);
  },
);
