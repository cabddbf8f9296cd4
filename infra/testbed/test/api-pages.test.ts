/**
 * The two HTML pages under /api (issue 28): the API docs (swagger-ui) and the queue board (Bull Board,
 * served by accounting-sync through the gateway) carry a Content-Security-Policy of their own, and in
 * production the API docs answer staff sessions only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGateway, DOCS_STAFF_ONLY, parseGatewayConfig } from '@decor/gateway';
import { spawnProcess } from '@decor/gateway/testing';
import type { ServiceApp } from '@decor/kit';
import { serviceEnv } from '@decor/kit/testing';
import { qboEnv, type RunningProcess, testEndpoints } from '@decor/stack';

/** The policy as directive → sources. */
const directives = (header: string | null): Record<string, string[]> =>
  Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );

/** What every answer of an API page must say: its own files and data only, inline script never. */
const expectApiPagePolicy = (where: string, header: string | null) => {
  const policy = directives(header);
  expect({ where, policy }).toEqual({
    where,
    policy: expect.objectContaining({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'frame-ancestors': ["'none'"],
    }),
  });
};

const ids = {
  staff: 'a0a0a0a0a0a0a0a0a0a0a0a1',
  superadmin: 'a0a0a0a0a0a0a0a0a0a0a0a2',
  customer: 'a0a0a0a0a0a0a0a0a0a0a0a3',
};
const sign = (gateway: ServiceApp, who: keyof typeof ids) =>
  gateway.signToken({
    id: ids[who],
    permissions: who === 'staff' ? 'admin' : who,
    email: `${who}@decor.example`,
  });

describe('outside production: the docs and the queue board, each with its policy', () => {
  let sync: RunningProcess;
  let gateway: ServiceApp;
  let url: string;

  beforeAll(async () => {
    const env = await serviceEnv('accounting-sync', qboEnv(testEndpoints(), {}));
    sync = await spawnProcess({
      name: 'accounting-sync',
      entry: 'services/accounting-sync/src/main.ts',
      env,
      readyUrl: `http://127.0.0.1:${env.PORT}/readyz`,
      logFile: path.join(mkdtempSync(path.join(tmpdir(), 'decor-api-pages-')), 'accounting-sync.log'),
    });
    const gatewayEnv = await serviceEnv('gateway');
    gateway = await buildGateway(
      parseGatewayConfig({
        ...gatewayEnv,
        ACCOUNTING_SYNC_SERVICE_URL: `http://127.0.0.1:${env.PORT}`,
        GATEWAY_CACHE_TTL_MS: '0',
      }),
      { logLevel: 'silent' },
    );
    url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await sync?.stop();
  }, 60_000);

  it('the API docs page, its files and its document', async () => {
    const page = await fetch(`${url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expectApiPagePolicy('/api/docs', page.headers.get('content-security-policy'));
    const html = await page.text();
    // Every script the page loads is a file of the gateway's own (script-src 'self'), none inline.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const file of ['/api/docs/static/swagger-initializer.js', '/api/docs/json']) {
      const res = await fetch(`${url}${file}`);
      expect([file, res.status]).toEqual([file, 200]);
      expectApiPagePolicy(file, res.headers.get('content-security-policy'));
    }
  });

  it('the queue board, opened as /admin/sync opens it, and its refusal', async () => {
    const refused = await fetch(`${url}/api/admin/queues`);
    expect(refused.status).toBe(401);
    expectApiPagePolicy('refused', refused.headers.get('content-security-policy'));

    const session = await fetch(`${url}/api/qbo/board-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sign(gateway, 'superadmin')}` },
    });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const board = await fetch(`${url}/api/admin/queues`, { headers: { cookie } });
    expect(board.status).toBe(200);
    expect(board.headers.get('content-type')).toContain('text/html');
    expectApiPagePolicy('/api/admin/queues', board.headers.get('content-security-policy'));
    expect(await board.text()).not.toMatch(/<script(?![^>]*\b(src=|type="application\/json"))[^>]*>/);
  });

  it('the JSON API itself carries no page policy', async () => {
    const res = await fetch(`${url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('in production: the API docs answer staff only', () => {
  let gateway: ServiceApp;
  let url: string;

  beforeAll(async () => {
    const e = await serviceEnv('gateway');
    gateway = await buildGateway(
      parseGatewayConfig({
        NODE_ENV: 'production',
        JWT_SECRET: randomBytes(48).toString('base64'),
        INTERNAL_PORT: '0',
        REDIS_URL: e.REDIS_URL,
        REDIS_PREFIX: e.REDIS_PREFIX,
        KAFKA_BROKERS: e.KAFKA_BROKERS,
        KAFKA_TOPIC_PREFIX: e.KAFKA_TOPIC_PREFIX,
        CORS_ORIGINS: 'https://rentals.example',
        USER_SERVICE_URL: 'http://127.0.0.1:9',
        CATALOGUE_SERVICE_URL: 'http://127.0.0.1:9',
        CART_SERVICE_URL: 'http://127.0.0.1:9',
        ORDER_SERVICE_URL: 'http://127.0.0.1:9',
        ACCOUNTING_SYNC_SERVICE_URL: 'http://127.0.0.1:9',
        NOTIFICATION_SERVICE_URL: 'http://127.0.0.1:9',
        GATEWAY_CACHE_TTL_MS: '0',
      }),
      { logLevel: 'silent' },
    );
    url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(() => gateway?.close());

  it.each(['/api/docs', '/api/docs/json', '/api/docs/static/swagger-initializer.js'])(
    '%s: 401 with what it needs to a browser or a client without a session, 403 to a customer',
    async (pathname) => {
      const anonymous = await fetch(`${url}${pathname}`);
      expect([pathname, anonymous.status, await anonymous.json()]).toEqual([
        pathname,
        401,
        { message: DOCS_STAFF_ONLY },
      ]);
      expectApiPagePolicy(pathname, anonymous.headers.get('content-security-policy'));
      const forged = await fetch(`${url}${pathname}`, { headers: { authorization: 'Bearer not.a.token' } });
      expect(forged.status).toBe(401);
      const customer = await fetch(`${url}${pathname}`, {
        headers: { authorization: `Bearer ${sign(gateway, 'customer')}` },
      });
      expect(customer.status).toBe(403);
    },
  );

  it('staff read the document and the page', async () => {
    const staff = { authorization: `Bearer ${sign(gateway, 'staff')}` };
    const doc = await fetch(`${url}/api/docs/json`, { headers: staff });
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    const page = await fetch(`${url}/api/docs`, { headers: staff });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
