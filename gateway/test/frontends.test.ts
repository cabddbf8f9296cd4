import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServiceApp } from '@decor/kit';
import { precompress } from '@decor/stack/tools';
import { buildGateway } from '../src/app';
import { loadGatewayConfig } from '../src/config';

/** The built frontends as the gateway serves them locally (FRONTENDS_DIR): no services needed. */
describe('serving the built frontends', () => {
  let dir: string;
  let gateway: ServiceApp;
  let url: string;
  const SHELL_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';
  const BIG_SCRIPT = `var rows = [${Array.from({ length: 2000 }, (_, i) => `"row ${i}"`).join(',')}];`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-frontends-'));
    mkdirSync(path.join(dir, 'shell', 'dist'), { recursive: true });
    mkdirSync(path.join(dir, 'storefront', 'dist'), { recursive: true });
    writeFileSync(path.join(dir, 'shell', 'dist', 'index.html'), SHELL_HTML);
    writeFileSync(path.join(dir, 'shell', 'dist', 'main.0123456789.js'), 'console.log(1)');
    writeFileSync(
      path.join(dir, 'shell', 'dist', 'remotes.json'),
      '{"storefront":"/remotes/storefront/remoteEntry.js"}',
    );
    writeFileSync(path.join(dir, 'storefront', 'dist', 'remoteEntry.js'), 'var storefront;');
    writeFileSync(path.join(dir, 'storefront', 'dist', 'big.js'), BIG_SCRIPT);
    writeFileSync(path.join(dir, 'shell', 'dist', 'vendor.js'), BIG_SCRIPT);
    writeFileSync(path.join(dir, 'shell', 'dist', 'vendor.abcdef0123.js'), BIG_SCRIPT);
    writeFileSync(path.join(dir, 'storefront', 'dist', '536.abcdef0123.js'), BIG_SCRIPT);
    for (const app of ['shell', 'storefront']) precompress(path.join(dir, app, 'dist'));
    gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET: 'frontends-test-secret',
        FRONTENDS_DIR: dir,
        GATEWAY_CACHE_TTL_MS: '0',
      }),
      { logLevel: 'silent' },
    );
    url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const html = { accept: 'text/html,application/xhtml+xml' };

  it('serves the shell, its files and the remotes', async () => {
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toBe(SHELL_HTML);
    expect((await fetch(`${url}/main.0123456789.js`)).status).toBe(200);
    expect(await (await fetch(`${url}/remotes.json`)).json()).toEqual({
      storefront: '/remotes/storefront/remoteEntry.js',
    });
    expect(await (await fetch(`${url}/remotes/storefront/remoteEntry.js`)).text()).toBe('var storefront;');
  });

  it('lets browsers keep content-hashed files for good, and revalidate the rest', async () => {
    const hashed = await fetch(`${url}/main.0123456789.js`);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const manifest = await fetch(`${url}/remotes.json`);
    expect(manifest.headers.get('cache-control')).not.toContain('immutable');
    const entry = await fetch(`${url}/remotes/storefront/remoteEntry.js`);
    expect(entry.headers.get('cache-control')).not.toContain('immutable');
  });

  it('keeps a hashed file for good in whichever encoding it is sent', async () => {
    // A browser always asks for br: the copy compressed at build is what it caches.
    for (const asset of ['/vendor.abcdef0123.js', '/remotes/storefront/536.abcdef0123.js']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const answer = await fetch(`${url}${asset}`, { headers: { 'accept-encoding': encoding } });
        expect([asset, encoding, answer.headers.get('content-encoding')]).toEqual([
          asset,
          encoding,
          encoding === 'identity' ? null : encoding,
        ]);
        expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(await answer.text()).toBe(BIG_SCRIPT);
      }
    }
  });

  it('sends the copies compressed at build to browsers that accept them, the file itself otherwise', async () => {
    for (const asset of ['/vendor.js', '/remotes/storefront/big.js']) {
      // Node's fetch asks for gzip and br and decodes the answer: compare what arrives with the file.
      const br = await fetch(`${url}${asset}`, { headers: { 'accept-encoding': 'br' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(await br.text()).toBe(BIG_SCRIPT);
      const gz = await fetch(`${url}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(await gz.text()).toBe(BIG_SCRIPT);
      const plain = await fetch(`${url}${asset}`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(BIG_SCRIPT);
    }
  });

  it("answers client routes with the shell's page, a reset link with a JWT (dots) included", async () => {
    for (const route of ['/inventory/BARS/Bar%20Front', '/checkout/summary', '/reset/aaa.bbb.ccc']) {
      const page = await fetch(`${url}${route}`, { headers: html });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toBe(SHELL_HTML);
    }
  });

  it('keeps missing files (as scripts ask for them), remote files and API paths 404', async () => {
    const asked: [string, Record<string, string>][] = [
      ['/missing.0123456789.js', { accept: '*/*' }],
      ['/remotes/storefront/nothing.js', html],
      ['/api/nothing', html],
    ];
    for (const [missing, headers] of asked) {
      const res = await fetch(`${url}${missing}`, { headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Not found' });
    }
  });
});

/**
 * The public pages' server renderer (page-render.ts), here a stand-in bundle: its pages go into the
 * shell's HTML, compressed, kept until the catalogue changes; a page it declines is the plain shell.
 */
describe('server-rendered pages', () => {
  let dir: string;
  let gateway: ServiceApp;
  let url: string;
  const SHELL_HTML =
    '<!doctype html><html><head><script defer src="/main.0123456789.js"></script></head><body><div id="root"><div class="boot">Loading…</div></div></body></html>';
  // Counts its renders; asks the API through the gateway as the real one does.
  const RENDERER = `let renders = 0; let fetchApi;
exports.useApi = (f) => { fetchApi = f; };
exports.renderPage = async (url) => {
  if (url === '/checkout') return null;
  renders += 1;
  const answer = await fetchApi('/api/nothing-here');
  // React announces the largest paint's image as a preload link at the top of its markup.
  const image = url === '/' ? '<link rel="preload" as="image" href="http://s3.test/img/a.svg?w=1&amp;h=2" fetchPriority="high"/>' : '';
  return { html: image + '<main><h1>' + url + ' render ' + renders + ' api ' + answer.status + '</h1></main>',
    styles: '<style>.x{}</style>', state: '{"api":{"a":1}}',
    preloadScripts: url.startsWith('/inventory') ? ['/remotes/storefront/remoteEntry.js'] : [] };
};
exports.sessionMark = { script: 'document.documentElement.className = "marked";',
  style: '<style>.mark{}</style>', boot: '<div id="boot">Loading…</div>', heldScriptType: 'text/x-held' };`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-pages-'));
    mkdirSync(path.join(dir, 'shell', 'dist'), { recursive: true });
    mkdirSync(path.join(dir, 'shell', 'dist-server'), { recursive: true });
    writeFileSync(path.join(dir, 'shell', 'dist', 'index.html'), SHELL_HTML);
    writeFileSync(path.join(dir, 'shell', 'dist-server', 'render.js'), RENDERER);
    gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET: 'pages-test-secret',
        FRONTENDS_DIR: dir,
        GATEWAY_CACHE_TTL_MS: '60000',
        KAFKA_BROKERS: '127.0.0.1:1',
      }),
      { logLevel: 'silent' },
    );
    url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a public page with its HTML in the shell, its data as JSON, compressed, and keeps it', async () => {
    const page = await fetch(`${url}/inventory/BARS/Bar%20Front`, { headers: { 'accept-encoding': 'br' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(
      '<div id="root"><main><h1>/inventory/BARS/Bar%20Front render 1 api 404</h1></main></div><script type="application/json" id="decor-state">{"api":{"a":1}}</script>',
    );
    // The shell's entry is held back (the session mark's script starts it once the page is painted).
    expect(html).toMatch(
      /<head><script type="text\/x-held" data-src="\/main\.0123456789\.js"><\/script><link rel="expect" href="#root" blocking="render"><script src="\/session-mark\.[0-9a-f]{10}\.js"><\/script><style>\.mark\{\}<\/style><link rel="preload" href="\/remotes\/storefront\/remoteEntry\.js" as="script"><style>\.x\{\}<\/style><\/head>/,
    );
    // The plain shell's loader is gone from the root; the session mark's stands before it.
    expect(html).toContain('<div id="boot">Loading…</div><div id="root"><main>');
    // Kept: the same render, whatever the encoding asked for.
    const again = await fetch(`${url}/inventory/BARS/Bar%20Front`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(again.headers.get('content-encoding')).toBeNull();
    expect(await again.text()).toBe(html);
  });

  it("serves the session mark's blocking script, same-origin and cached for good under its hash", async () => {
    const html = await (await fetch(`${url}/gallery`)).text();
    const src = /<script src="(\/session-mark\.[0-9a-f]{10}\.js)">/.exec(html)?.[1];
    expect(src).toBeDefined();
    const script = await fetch(`${url}${src}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toBe('document.documentElement.className = "marked";');
    // Scripts stay same-origin files: the page's CSP allows no inline code.
    const csp = (await fetch(`${url}/gallery`)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
  });

  it('names what the first paint needs in a Link header, so the browser asks for it before parsing the page', async () => {
    const home = await fetch(`${url}/`);
    const mark = /<script src="(\/session-mark\.[0-9a-f]{10}\.js)">/.exec(await home.text())?.[1];
    // The mark's script and the largest image; the entries (held until the page is painted) are not.
    expect(home.headers.get('link')).toBe(
      `<${mark}>; rel=preload; as=script, <http://s3.test/img/a.svg?w=1&h=2>; rel=preload; as=image; fetchpriority=high`,
    );
    const inventory = await fetch(`${url}/inventory/BARS/Bar%20Front`);
    expect(inventory.headers.get('link')).toBe(`<${mark}>; rel=preload; as=script`);
    // The plain shell (a page the renderer declines) has none.
    expect((await fetch(`${url}/checkout`)).headers.get('link')).toBeNull();
  });

  it('renders again once the catalogue changed (its cache is cleared)', async () => {
    const before = await (await fetch(`${url}/`)).text();
    gateway.catalogueCache?.cache.invalidate();
    const after = await (await fetch(`${url}/`)).text();
    expect(before).toMatch(/\/ render \d+/);
    expect(after).not.toBe(before);
  });

  it('answers HEAD for a page as GET does, without the body', async () => {
    const get = await fetch(`${url}/gallery`, { headers: { 'accept-encoding': 'br' } });
    const head = await fetch(`${url}/gallery`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    for (const name of ['content-type', 'content-encoding', 'content-length', 'link', 'cache-control']) {
      expect([name, head.headers.get(name)]).toEqual([name, get.headers.get(name)]);
    }
    expect(await head.text()).toBe('');
    // A page the renderer declines, and an API path, answer HEAD as they answer GET.
    expect((await fetch(`${url}/checkout`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${url}/api/nothing`, { method: 'HEAD' })).status).toBe(404);
  });

  it('answers a page the renderer declines with the plain shell', async () => {
    const page = await fetch(`${url}/checkout`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(SHELL_HTML);
  });
});
