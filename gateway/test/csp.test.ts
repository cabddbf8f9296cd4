import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServiceApp } from '@decor/kit';
import { buildGateway } from '../src/app';
import { loadGatewayConfig } from '../src/config';

/** The gateway's Content-Security-Policy on the frontends it serves (src/csp.ts); /api is not a page. */
describe('Content-Security-Policy of the pages and assets', () => {
  let dir: string;
  let gateway: ServiceApp;
  let url: string;
  const IMAGES = 'http://images.example.test:4569/decor-images';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-csp-'));
    mkdirSync(path.join(dir, 'shell', 'dist'), { recursive: true });
    mkdirSync(path.join(dir, 'storefront', 'dist'), { recursive: true });
    writeFileSync(path.join(dir, 'shell', 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dir, 'shell', 'dist', 'main.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'shell', 'dist', 'remotes.json'), '{}');
    writeFileSync(path.join(dir, 'storefront', 'dist', 'remoteEntry.js'), 'var storefront;');
    gateway = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET: 'csp-test-secret-0123456789',
        FRONTENDS_DIR: dir,
        GATEWAY_CACHE_TTL_MS: '0',
        S3_PUBLIC_URL: IMAGES,
        S3_UPLOAD_ENDPOINT: 'http://uploads.example.test:9000',
      }),
      { logLevel: 'silent' },
    );
    url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The policy as directive → sources. */
  const directives = (header: string | null): Record<string, string[]> =>
    Object.fromEntries(
      (header ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...sources]) => [name as string, sources]),
    );

  it.each([
    ['/', 'the shell'],
    ['/inventory/BARS/Bar%20Front', 'a client-side route'],
    ['/main.js', "the shell's script"],
    ['/remotes.json', 'the remotes manifest'],
    ['/remotes/storefront/remoteEntry.js', "a remote's entry"],
    ['/missing.js', 'a missing asset'],
  ])('%s (%s) carries the policy', async (pathname) => {
    const res = await fetch(`${url}${pathname}`, { headers: { accept: 'text/html,*/*' } });
    await res.arrayBuffer();
    const csp = directives(res.headers.get('content-security-policy'));
    // Script only from the product's own origin: no inline script, no eval, no other host.
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    // Images from here and the image host's bucket folder only.
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', `${IMAGES}/`]);
    // The API and order stream here, presigned uploads to the S3 endpoint.
    expect(csp['connect-src']).toEqual(["'self'", 'http://uploads.example.test:9000']);
    // antd's CSS-in-JS: inline styles (styles only).
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp['frame-ancestors']).toEqual(["'self'"]);
    // No payment provider configured: only our own pages may be framed.
    expect(csp['frame-src']).toEqual(["'self'"]);
    expect(JSON.stringify(csp)).not.toContain('unsafe-eval');
  });

  it('leaves /api alone (JSON answers and the API docs page)', async () => {
    const res = await fetch(`${url}/api/nothing-here`);
    await res.arrayBuffer();
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it("allows uploads to the image host's origin when no upload endpoint is set", async () => {
    const plain = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET: 'csp-test-secret-0123456789',
        FRONTENDS_DIR: dir,
        GATEWAY_CACHE_TTL_MS: '0',
        S3_PUBLIC_URL: IMAGES,
      }),
      { logLevel: 'silent' },
    );
    try {
      const plainUrl = await plain.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${plainUrl}/`);
      await res.arrayBuffer();
      expect(directives(res.headers.get('content-security-policy'))['connect-src']).toEqual([
        "'self'",
        'http://images.example.test:4569',
      ]);
    } finally {
      await plain.close();
    }
  });

  it("allows the payment provider's card frame (PAYMENTS_FRAME_URL) in frame-src only", async () => {
    const withPayments = await buildGateway(
      loadGatewayConfig({
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        JWT_SECRET: 'csp-test-secret-0123456789',
        FRONTENDS_DIR: dir,
        GATEWAY_CACHE_TTL_MS: '0',
        S3_PUBLIC_URL: IMAGES,
        PAYMENTS_FRAME_URL: 'http://payments.example.test:4590/elements',
      }),
      { logLevel: 'silent' },
    );
    try {
      const paymentsUrl = await withPayments.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${paymentsUrl}/orders/estimate/e1/accept`, {
        headers: { accept: 'text/html' },
      });
      await res.arrayBuffer();
      const csp = directives(res.headers.get('content-security-policy'));
      // Its origin (the page's query carries our origin, which varies), for frames and nothing else.
      expect(csp['frame-src']).toEqual(["'self'", 'http://payments.example.test:4590']);
      const elsewhere = Object.entries(csp).filter(([name]) => name !== 'frame-src');
      expect(JSON.stringify(elsewhere)).not.toContain('payments.example.test');
    } finally {
      await withPayments.close();
    }
  });
});
