import { ROUTES } from '@decor/gateway';
import { type Stack, startStack } from '../src/stack';

/** `name{labels} value` lines of the Prometheus text format whose labels include `labels`. */
function values(text: string, name: string, labels: Record<string, string>): number[] {
  const found: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) found.push(Number(m[3]));
  }
  return found;
}

async function metricsOf(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

let stack: Stack;

beforeAll(async () => {
  // The user service behind the gateway; the notification service's address answers nothing.
  stack = await startStack({ notification: false });
});

afterAll(async () => {
  await stack?.stop();
});

describe("the gateway's /metrics", () => {
  it('has the process metrics, labelled service="gateway"', async () => {
    const text = await metricsOf(stack.gateway.internalUrl);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="gateway"\} \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes\{service="gateway"\} \d/m);
  });

  it('times proxied requests by routing pattern, and counts the status each service answered', async () => {
    const id = '0a1b2c3d4e5f60718293a4b5';
    // Public prefixes: the user service itself answers (401 without a session).
    expect((await fetch(`${stack.gatewayUrl}/api/auth/jwt`)).status).toBe(401);
    expect((await fetch(`${stack.gatewayUrl}/api/user/${id}`)).status).toBe(401);
    // A staff prefix: the gateway refuses it itself.
    expect((await fetch(`${stack.gatewayUrl}/api/users`)).status).toBe(401);
    // The notification service is down: the gateway answers 503.
    const down = await fetch(`${stack.gatewayUrl}/api/send/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(down.status).toBe(503);

    const text = await metricsOf(stack.gateway.internalUrl);
    const gateway = { service: 'gateway' };
    expect(
      values(text, 'http_request_duration_seconds_count', {
        ...gateway,
        route: '/api/auth/*',
        status_code: '401',
      }),
    ).toEqual([1]);
    expect(
      values(text, 'http_request_duration_seconds_count', {
        ...gateway,
        route: '/api/user/*',
        status_code: '401',
      }),
    ).toEqual([1]);
    // What the client got: the 503, not the 500 Fastify notes when the proxy answers a failure twice.
    expect(
      values(text, 'http_request_duration_seconds_count', {
        ...gateway,
        method: 'POST',
        route: '/api/send/info',
        status_code: '503',
      }),
    ).toEqual([1]);
    expect(text).not.toContain(id);
    expect(text).not.toContain('/api/auth/jwt');

    expect(
      values(text, 'gateway_upstream_responses_total', {
        service: 'user',
        route: '/api/auth',
        status_code: '401',
      }),
    ).toEqual([1]);
    expect(
      values(text, 'gateway_upstream_responses_total', {
        service: 'user',
        route: '/api/user',
        status_code: '401',
      }),
    ).toEqual([1]);
    // Refused at the gateway: not an upstream answer.
    expect(values(text, 'gateway_upstream_responses_total', { route: '/api/users' })).toEqual([]);
    expect(
      values(text, 'gateway_upstream_failures_total', {
        service: 'notification',
        route: '/api/send/info',
        status_code: '503',
      }),
    ).toEqual([1]);
    expect(values(text, 'gateway_upstream_responses_total', { service: 'notification' })).toEqual([]);
  });
});

describe('/metrics is not public API', () => {
  it('no routing-table prefix covers /metrics', () => {
    for (const { prefix } of ROUTES) expect('/metrics'.startsWith(prefix)).toBe(false);
  });

  it('/api/metrics and dot-segment tricks under a proxied prefix never reach a service /metrics', async () => {
    // The user service does have one (the operator's scraper reads it directly).
    expect(await metricsOf(stack.user.url)).toContain('# HELP http_request_duration_seconds');

    for (const path of [
      '/api/metrics',
      '/api/metrics/',
      '/api/auth/%2e%2e/metrics',
      '/api/auth/..%2Fmetrics',
      '/api/user/%2E%2E%2Fmetrics',
    ]) {
      const res = await fetch(`${stack.gatewayUrl}${path}`);
      const body = await res.text();
      expect([path, res.status >= 400]).toEqual([path, true]);
      expect(body).not.toContain('# HELP');
      expect(res.headers.get('content-type') ?? '').not.toMatch(/^text\/plain/);
    }
    const notFound = await fetch(`${stack.gatewayUrl}/api/metrics`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ message: 'Not found' });
  });
});
