/** Every route of the service is in its OpenAPI document (merged into /api/docs) and checks its role. */
import { newId, request, type Sync, staffToken, startSync, stopAndClean } from './support';

const ROUTES: Array<{ method: string; path: string; docPath: string; role: 'staff' | 'superadmin' }> = [
  { method: 'GET', path: '/auth/accessToken', docPath: '/auth/accessToken', role: 'staff' },
  { method: 'GET', path: '/qbo/connect', docPath: '/qbo/connect', role: 'staff' },
  { method: 'GET', path: '/qbo/status', docPath: '/qbo/status', role: 'staff' },
  { method: 'GET', path: '/qbo/get/renewToken', docPath: '/qbo/get/renewToken', role: 'staff' },
  { method: 'POST', path: '/qbo/estimate', docPath: '/qbo/estimate', role: 'staff' },
  { method: 'PUT', path: '/qbo/estimate/', docPath: '/qbo/estimate/', role: 'staff' },
  { method: 'POST', path: '/qbo/invoice', docPath: '/qbo/invoice', role: 'staff' },
  { method: 'PUT', path: '/qbo/invoice/', docPath: '/qbo/invoice/', role: 'staff' },
  { method: 'POST', path: '/qbo/user', docPath: '/qbo/user', role: 'staff' },
  { method: 'POST', path: '/qbo/product', docPath: '/qbo/product', role: 'staff' },
  { method: 'PUT', path: '/qbo/product', docPath: '/qbo/product', role: 'staff' },
  { method: 'POST', path: '/qbo/send/estimate/12', docPath: '/qbo/send/{type}/{qboId}', role: 'staff' },
  { method: 'GET', path: '/qbo/categories', docPath: '/qbo/categories', role: 'staff' },
  { method: 'GET', path: '/qbo/users', docPath: '/qbo/users', role: 'staff' },
  { method: 'GET', path: '/qbo/jobs/failed', docPath: '/qbo/jobs/failed', role: 'staff' },
  {
    method: 'POST',
    path: '/qbo/jobs/qbo-sync/x/retry',
    docPath: '/qbo/jobs/{queue}/{id}/retry',
    role: 'staff',
  },
  { method: 'GET', path: '/qbo/dead-letters', docPath: '/qbo/dead-letters', role: 'staff' },
  {
    method: 'POST',
    path: '/qbo/dead-letters/x/replay',
    docPath: '/qbo/dead-letters/{id}/replay',
    role: 'staff',
  },
  { method: 'POST', path: '/qbo/board-session', docPath: '/qbo/board-session', role: 'superadmin' },
];

describe('routes of the accounting-sync service', () => {
  let sync: Sync;
  beforeAll(async () => {
    sync = await startSync();
  });
  afterAll(() => stopAndClean(sync));

  it('are all in its OpenAPI document, with the session security', async () => {
    const doc = (await request(sync.url, '/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    for (const route of ROUTES) {
      const op = doc.paths[route.docPath]?.[route.method.toLowerCase()];
      expect({
        route: `${route.method} ${route.docPath}`,
        documented: Boolean(op),
        secured: Boolean(op?.security),
      }).toEqual({
        route: `${route.method} ${route.docPath}`,
        documented: true,
        secured: true,
      });
    }
  });

  it('refuse visitors (401), customers (403) and admins where superadmins are needed (403)', async () => {
    const customer = sync.app.signToken({ id: newId(), permissions: 'customer', email: 'c@decor.example' });
    const admin = staffToken(sync);
    for (const route of ROUTES) {
      const name = `${route.method} ${route.path}`;
      const json = route.method === 'GET' ? undefined : {};
      expect({
        name,
        status: (await request(sync.url, route.path, { method: route.method, json })).status,
      }).toEqual({ name, status: 401 });
      const asCustomer = await request(sync.url, route.path, { method: route.method, json, token: customer });
      expect({ name, status: asCustomer.status }).toEqual({ name, status: 403 });
      if (route.role === 'superadmin') {
        const asAdmin = await request(sync.url, route.path, { method: route.method, json, token: admin });
        expect({ name, status: asAdmin.status }).toEqual({ name, status: 403 });
      }
    }
  });
});
