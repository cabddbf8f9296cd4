import type { Permission } from '@decor/contracts/rules';
import { createAppStore, http, signedIn } from '@decor/web-core';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../src/features/frame/components/AppFrame';
import { loadScreen } from '../src/remotes';
import { type AppRoute, ROUTES } from '../src/routes';
import * as access from '../src/shared/access';
import { renderAt } from './support';

// The access rules over the site's table (the frame is handed the same table by src/app.tsx).
const routeOf = (pathname: string) => access.routeOf(pathname, ROUTES);
const canOpen = (permissions: Permission | null, pathname: string) =>
  access.canOpen(permissions, pathname, ROUTES);
const menuFor = (permissions: Permission | null) => access.menuFor(permissions, ROUTES);

jest.mock('../src/remotes', () => ({ loadScreen: jest.fn(), loadedScreen: jest.fn() }));
const load = loadScreen as jest.MockedFunction<typeof loadScreen>;

/** A visitor (no session) and each role of @decor/contracts. */
const VIEWERS: readonly (Permission | null)[] = [null, 'customer', 'admin', 'superadmin'];
const guarded = ROUTES.filter((route): route is AppRoute & { roles: readonly Permission[] } => !!route.roles);
/** A concrete address inside a route (`/checkout/*` → `/checkout/here`). */
const addressIn = (route: AppRoute) => route.path.replace('/*', '/here').replace(':token', 'a.b.c');
const labels = (permissions: Permission | null) => menuFor(permissions).map((entry) => entry.label);

describe('the route table (spec §2): the user menu is built from it', () => {
  it('customers: Profile, Carts, Orders, Checkout; staff: Profile, Users, Orders, Availability, Settings; visitors: none', () => {
    expect(labels('customer')).toEqual(['Profile', 'Carts', 'Orders', 'Checkout']);
    expect(labels('admin')).toEqual(['Profile', 'Users', 'Orders', 'Availability', 'Settings']);
    expect(labels('superadmin')).toEqual(['Profile', 'Users', 'Orders', 'Availability', 'Settings']);
    expect(labels(null)).toEqual([]);
  });

  it.each(VIEWERS)(
    'offers %s only screens its guard lets in, each served by the route declaring it',
    (role) => {
      for (const route of ROUTES) {
        for (const entry of route.menu ?? []) {
          expect(routeOf(entry.to)).toBe(route);
          expect(menuFor(role).some((item) => item.key === entry.to)).toBe(canOpen(role, entry.to));
        }
      }
    },
  );

  it('a customer is never offered a staff screen, staff never a customer-only one', () => {
    expect(menuFor('customer').filter((item) => item.key.startsWith('/admin'))).toEqual([]);
    for (const item of menuFor('admin')) expect(routeOf(item.key)?.roles).toContain('staff');
    for (const item of menuFor('customer')) expect(routeOf(item.key)?.roles).toContain('customer');
  });
});

describe('the route table (spec §2): who may open which screen', () => {
  it('a visitor opens the public pages only', () => {
    for (const route of ROUTES) expect(canOpen(null, addressIn(route))).toBe(!route.roles);
    for (const path of ['/checkout/cart', '/carts', '/profile', '/orders', '/admin/users']) {
      expect(canOpen(null, path)).toBe(false);
    }
  });

  it('customers: checkout, carts, profile, orders — never /admin', () => {
    for (const path of ['/checkout/cart', '/carts', '/profile', '/orders/estimate/e1']) {
      expect(canOpen('customer', path)).toBe(true);
    }
    for (const path of ['/admin', '/admin/users', '/admin/availability', '/admin/orders']) {
      expect(canOpen('customer', path)).toBe(false);
    }
  });

  it('staff (admin and superadmin): /admin, profile, orders — not checkout or carts', () => {
    for (const role of ['admin', 'superadmin'] as const) {
      for (const path of ['/admin/users', '/admin/sync', '/profile', '/orders'])
        expect(canOpen(role, path)).toBe(true);
      for (const path of ['/checkout/cart', '/carts']) expect(canOpen(role, path)).toBe(false);
    }
  });

  it('any other path is the home screen, open to all', () => {
    expect(routeOf('/no/such/page')?.path).toBe('*');
    for (const role of VIEWERS) expect(canOpen(role, '/no/such/page')).toBe(true);
  });
});

describe('the router built from the table guards each screen by its roles', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({
      'GET /categories': () => ({ body: { result: { categories: [], subcategories: [] } } }),
      'GET /product': () => ({ body: { result: [] } }),
    });
    http.defaults.baseURL = server.apiUrl;
    load.mockImplementation(async (remote, module) => ({
      default: () => <p>{`${remote}/${module} screen`}</p>,
    }));
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });

  const cases = guarded.flatMap((route) => VIEWERS.map((role) => [addressIn(route), role] as const));

  it.each(cases)('%s as %s: the screen if the table admits the role, else back to /', async (path, role) => {
    const store = createAppStore();
    if (role) store.dispatch(signedIn({ user: { ...demoUser, permissions: role }, token: 'jwt' }));
    renderAt(path, <AppRoutes routes={ROUTES} />, store);
    if (canOpen(role, path)) {
      expect(await screen.findByText(/ screen$/, {}, { timeout: 10_000 })).toBeInTheDocument();
      expect(screen.getByLabelText('location')).toHaveTextContent(path);
    } else {
      await waitFor(() => expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/));
      expect(
        await screen.findByRole('heading', { name: 'About us' }, { timeout: 10_000 }),
      ).toBeInTheDocument();
    }
  });
});
