import http from 'node:http';
import { parseGatewayConfig } from '@decor/gateway';
import { type StorefrontStack, startStorefrontStack } from '../src/storefront-stack';

let stack: StorefrontStack;

beforeAll(async () => {
  // User and catalogue behind the gateway, its cache of catalogue reads on.
  stack = await startStorefrontStack({ notification: false });
}, 180_000);
afterAll(() => stack?.stop());

/** A raw request (fetch would normalise the path, and cannot send a body without a length the way we need). */
function raw(
  base: string,
  path: string,
  opts: { method?: string; body?: Buffer; chunk?: number } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    // Options, not a URL: a URL would be normalised (`..\\x` → `/x`) before it is sent.
    const { hostname, port } = new URL(base);
    const req = http.request({
      hostname,
      port,
      path,
      method: opts.method ?? 'GET',
      headers: opts.body ? { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } : {},
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    // Writing on after the answer came fails once the gateway closes the connection: the answer counts.
    req.on('error', reject);
    if (!opts.body) {
      req.end();
      return;
    }
    const body = opts.body;
    const size = opts.chunk ?? 64 * 1024;
    let at = 0;
    const next = () => {
      while (at < body.length) {
        const ok = req.write(body.subarray(at, at + size));
        at += size;
        if (!ok) {
          req.once('drain', next);
          return;
        }
      }
      req.end();
    };
    next();
  });
}

describe('paths that could name something else are refused before any route, cache or limit', () => {
  it.each([
    '/api/product/..\\metrics',
    '/api/product/..\\readyz',
    '/api/product/..\\openapi.json',
    '/api/product/..%5cmetrics',
    '/api/product/%2e%2e%5Cmetrics',
    '/api/product/%2E%2E/metrics',
    '/api/product/../metrics',
    '/api/categories/./x',
    '/api/product//x',
    '/api/product/x%2fy',
  ])('GET %s', async (path) => {
    const res = await raw(stack.gatewayUrl, path);
    expect([path, res.status, res.text]).toEqual([path, 400, JSON.stringify({ message: 'Invalid path' })]);
  });

  it.each(['/api/auth/./user', '/api/auth/%2e/user', '/api/auth/%2E/user', '/api/auth/x/../user'])(
    'POST %s does not reach the sign-in around its limit',
    async (path) => {
      const body = Buffer.from(JSON.stringify({ email: 'customer@decor.example', password: 'demo1234' }));
      const res = await raw(stack.gatewayUrl, path, { method: 'POST', body });
      expect([path, res.status, res.text]).toEqual([path, 400, JSON.stringify({ message: 'Invalid path' })]);
    },
  );

  it.each([
    '/%61pi/orders/events',
    '/api/%6Frders/events',
    '/api/auth/%6awt',
    '/api/product%2Dx',
    '/%61pi/docs',
  ])(
    'GET %s (a plain character spelt encoded: routed as /api, seen by no /api check) is refused',
    async (path) => {
      const res = await raw(stack.gatewayUrl, path);
      expect([path, res.status, res.text]).toEqual([path, 400, JSON.stringify({ message: 'Invalid path' })]);
    },
  );

  it('plain paths still work, the cached catalogue reads included', async () => {
    const list = await raw(stack.gatewayUrl, '/api/product?limit=1');
    expect(list.status).toBe(200);
    const [first] = JSON.parse(list.text).result as { id: string }[];
    expect((await raw(stack.gatewayUrl, `/api/product/${first?.id}`)).status).toBe(200);
    expect((await raw(stack.gatewayUrl, `/api/product/${first?.id}/image`)).status).toBe(200);
    expect((await raw(stack.gatewayUrl, '/api/categories')).status).toBe(200);
  });
});

describe('bodies over the limit', () => {
  it('a 5 MB chunked body (no Content-Length) to the sign-in is refused with 413 by the gateway itself', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 'a');
    const res = await raw(stack.gatewayUrl, '/api/auth/user', { method: 'POST', body });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({ message: 'The request body is larger than 1024 KB' });
  });

  it('a small chunked body still reaches the service', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'customer@decor.example', password: 'demo1234' }));
    const res = await raw(stack.gatewayUrl, '/api/auth/user', { method: 'POST', body, chunk: 7 });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).result.permissions).toBe('customer');
  });
});

describe("the operator's routes are on the internal port only", () => {
  it.each(['/metrics', '/readyz', '/openapi.json'])('%s', async (path) => {
    // Outside: what any unknown path gets (the site's page, or 404 for a file-like path), never the answer.
    const outside = await raw(stack.gatewayUrl, path);
    expect(outside.text).not.toMatch(/# HELP|"checks"|"openapi"/);
    const inside = await fetch(`${stack.gateway.internalUrl}${path}`);
    expect([path, inside.status]).toEqual([path, 200]);
    expect(await inside.text()).toMatch(/# HELP|"checks"|"openapi"/);
  });

  it('/healthz (it says only "ok") answers on both; /api/docs stays public by choice', async () => {
    expect((await raw(stack.gatewayUrl, '/healthz')).status).toBe(200);
    expect((await fetch(`${stack.gateway.internalUrl}/healthz`)).status).toBe(200);
    expect((await raw(stack.gatewayUrl, '/api/docs/json')).status).toBe(200);
  });
});

describe('CORS in production', () => {
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: 'gT4pXw9LqZ2nV7sK0cYbR5mHjD8fA3eU6oWiN1tQxE_',
    INTERNAL_PORT: '8081',
    REDIS_URL: 'redis://redis:6379',
    KAFKA_BROKERS: 'kafka:9092',
    USER_SERVICE_URL: 'http://user:4101',
    CATALOGUE_SERVICE_URL: 'http://catalogue:4102',
    CART_SERVICE_URL: 'http://cart:4103',
    ORDER_SERVICE_URL: 'http://order:4104',
    ACCOUNTING_SYNC_SERVICE_URL: 'http://accounting-sync:4105',
    NOTIFICATION_SERVICE_URL: 'http://notification:4106',
  };

  it('needs the list of origins: unset or * stops the start', () => {
    expect(() => parseGatewayConfig(production)).toThrow(/CORS_ORIGINS is required when NODE_ENV=production/);
    expect(() => parseGatewayConfig({ ...production, CORS_ORIGINS: '*' })).toThrow(
      /CORS_ORIGINS must list the allowed origins/,
    );
    expect(parseGatewayConfig({ ...production, CORS_ORIGINS: 'https://rentals.example' }).CORS_ORIGINS).toBe(
      'https://rentals.example',
    );
  });
});
