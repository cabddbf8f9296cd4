import { type Stack, startStack } from '../src/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ notification: false });
});
afterAll(() => stack.stop());

describe('API documentation', () => {
  it('serves one OpenAPI document built from the services’ route schemas under /api', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { tags: string[]; requestBody?: unknown }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    const signIn = doc.paths['/api/auth/user']?.post;
    expect(signIn?.tags).toEqual(['user']);
    expect(JSON.stringify(signIn?.requestBody)).toContain('"password"');
    expect(doc.paths['/api/send/reset']?.post).toBeDefined();
    expect(doc.paths['/api/healthz']).toBeUndefined();
  });

  it("lists the back office's user and company calls, each behind the session", async () => {
    const doc = (await (await fetch(`${stack.gatewayUrl}/api/docs/json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const calls: [string, string][] = [
      ['/api/user', 'get'],
      ['/api/user', 'post'],
      ['/api/user/{id}', 'put'],
      ['/api/user/{id}', 'delete'],
      ['/api/company', 'get'],
      ['/api/company', 'post'],
      ['/api/company/{id}', 'get'],
      ['/api/company/{id}', 'put'],
      ['/api/company/{id}', 'delete'],
      ['/api/send/welcomeEmail', 'post'],
    ];
    for (const [path, method] of calls) {
      expect({ path, method, security: doc.paths[path]?.[method]?.security }).toEqual({
        path,
        method,
        security: [{ session: [] }],
      });
    }
  });

  it('serves the browsable page', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/docs`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('shows a page for client-side routes and 404 JSON for unknown API paths', async () => {
    const page = await fetch(`${stack.gatewayUrl}/inventory/BARS/Bar%20Front`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const api = await fetch(`${stack.gatewayUrl}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'Not found' });
  });
});
