import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { precompress } from '@decor/infra/tools';
import type { ServiceApp } from '@decor/kit';
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
    for (const app of ['shell', 'storefront']) precompress(path.join(dir, app, 'dist'));
    gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
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
