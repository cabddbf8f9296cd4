/**
 * The users screens' tests: a fake user service + accounting-sync on a real local HTTP server (the
 * app's axios client talks to it over the network), and the back office rendered with the real store.
 */
import { createAppStore, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation } from '@decor/web-core/router';
import { type ApiServer, demoUser, type Recorded, type Reply, startApiServer } from '@decor/web-core/testing';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import BackOffice from '../src/BackOffice';
import type { Company, QboUsers, SiteUser } from '../src/features/users/api/types';

export const staffUser = {
  ...demoUser,
  id: '64b7f0c2a1b2c3d4e5f60799',
  firstName: 'Sam',
  lastName: 'Staff',
  displayName: 'Sam Staff',
  email: 'staff@decor.example',
  permissions: 'admin',
  ownCompany: null,
  CompanyId: null,
  cart: null,
};

/** First answers from the local server: generous on a busy machine. */
export const LOAD = { timeout: 15_000 };

export const aCompany = (over: Partial<Company> = {}): Company => ({
  id: 'c1',
  name: 'Evergreen Weddings',
  displayName: 'Evergreen Weddings',
  street: '12 Pine St',
  city: 'Austin',
  state: 'TX',
  zipCode: '78701',
  phone: '512-555-0101',
  qboId: '3',
  ...over,
});

export const aUser = (over: Partial<SiteUser> = {}): SiteUser => ({
  id: 'u1',
  firstName: 'Casey',
  lastName: 'Morgan',
  displayName: 'Casey Morgan',
  email: 'casey@evergreen.example',
  phone: '512-555-0199',
  permissions: 'customer',
  active: true,
  ownCompany: 'Evergreen Weddings',
  CompanyId: 'c1',
  qboId: null,
  ...over,
});

export const query = (request: Recorded) => new URL(request.url, 'http://x').searchParams;

/** A fake back end holding users and companies, answering the calls of spec §7 like the user service. */
export class FakeBackend {
  server!: ApiServer;
  users: SiteUser[] = [];
  companies: Company[] = [];
  qboUsers: QboUsers = { companies: [], customers: [] };
  /** When "QuickBooks was read" (GET /qbo/users?refresh=true moves it on). */
  qboListedAt = '2026-11-27T09:30:00.000Z';
  /** Per `METHOD /path`: answer this instead (errors, hangs). */
  overrides = new Map<string, (request: Recorded) => Reply | Promise<Reply>>();
  private nextId = 100;

  async start(): Promise<void> {
    this.server = await startApiServer({});
    http.defaults.baseURL = this.server.apiUrl;
    this.reset();
  }

  async stop(): Promise<void> {
    http.defaults.baseURL = '/api';
    await this.server.close();
  }

  reset(): void {
    this.users = [];
    this.companies = [];
    this.qboUsers = { companies: [], customers: [] };
    this.qboListedAt = '2026-11-27T09:30:00.000Z';
    this.overrides.clear();
    this.server.requests.length = 0;
    this.routes();
  }

  calls(method: string, path: string): Recorded[] {
    return this.server.requests.filter((r) => r.method === method && r.url.split('?')[0] === `/api${path}`);
  }

  /** The query string of one call (index -1: the last). */
  params(method: string, path: string, index = -1): URLSearchParams {
    const call = this.calls(method, path).at(index);
    if (!call) throw new Error(`no ${method} ${path} call at ${index}`);
    return query(call);
  }

  private reply(key: string, fallback: (request: Recorded) => Reply | Promise<Reply>) {
    this.server.routes.set(key, (request) => (this.overrides.get(key) ?? fallback)(request));
  }

  /** GET /qbo/users as accounting-sync answers: every word in a name, company or e-mail; companies then customers. */
  qboUsersPage(request: Recorded, users: QboUsers = this.qboUsers): Reply {
    const q = query(request);
    if (q.get('refresh') === 'true') this.qboListedAt = new Date().toISOString();
    const words = (q.get('search') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const keep = (e: { onSite: boolean }, fields: Array<string | null>) =>
      !(q.get('hideOnSite') === 'true' && e.onSite) &&
      words.every((w) => fields.some((f) => f?.toLowerCase().includes(w)));
    const companies = users.companies.filter((c) => keep(c, [c.displayName, c.name, c.email]));
    const customers = users.customers.filter((c) =>
      keep(c, [c.displayName, c.email, c.company, c.parentName]),
    );
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit') ?? 1000);
    const n = companies.length;
    return {
      body: {
        result: {
          companies: companies.slice(offset, offset + limit),
          customers: customers.slice(Math.max(0, offset - n), Math.max(0, offset + limit - n)),
          listedAt: this.qboListedAt,
        },
      },
      headers: { total_count: String(n + customers.length) },
    };
  }

  /** (Re)registers every route, the per-id ones for the records held now. */
  routes(): void {
    this.server.routes.clear();
    const list = <T,>(rows: T[], request: Recorded): Reply => {
      const q = query(request);
      const offset = Number(q.get('offset') ?? 0);
      const limit = Number(q.get('limit') ?? 20);
      return {
        body: { result: rows.slice(offset, offset + limit) },
        headers: { total_count: String(rows.length) },
      };
    };
    const prefix = (value: string | null | undefined, like: string | null, field: string) => {
      if (!like?.startsWith(`${field}:`)) return true;
      return (value ?? '').toLowerCase().startsWith(like.slice(field.length + 1).toLowerCase());
    };
    this.reply('GET /user', (request) => {
      const q = query(request);
      const permissions = q.getAll('permissions');
      const like = q.get('like');
      const companyId = q.get('CompanyId');
      const rows = this.users
        .filter((u) => permissions.length === 0 || permissions.includes(u.permissions))
        .filter((u) => !companyId || u.CompanyId === companyId)
        .filter(
          (u) =>
            prefix(u.ownCompany, like, 'ownCompany') &&
            prefix(u.email, like, 'email') &&
            prefix(u.displayName, like, 'displayName'),
        );
      return list(rows, request);
    });
    this.reply('GET /company', (request) => {
      const like = query(request).get('like');
      return list(
        this.companies.filter((c) => prefix(c.name, like, 'name')),
        request,
      );
    });
    this.reply('POST /company', (request) => {
      const body = request.body as Partial<Company>;
      if (this.companies.some((c) => c.name === body.name)) {
        return { status: 409, body: { message: 'A company with this name already exists' } };
      }
      const company = aCompany({
        ...body,
        id: `c${this.nextId++}`,
        displayName: body.name,
        qboId: body.qboId ?? null,
      });
      this.companies.push(company);
      this.routes();
      return { status: 201, body: { result: company } };
    });
    this.reply('POST /user', (request) => {
      const body = request.body as Partial<SiteUser>;
      if (this.users.some((u) => u.email === body.email)) {
        return { status: 409, body: { message: 'A user with this email already exists' } };
      }
      const user = aUser({ ...body, id: `u${this.nextId++}`, active: true, qboId: body.qboId ?? null });
      this.users.push(user);
      this.routes();
      return { status: 201, body: { result: user } };
    });
    this.reply('POST /send/welcomeEmail', () => ({
      body: { result: { message: 'The welcome email has been sent' } },
    }));
    this.reply('GET /qbo/users', (request) => this.qboUsersPage(request));
    // The orders list on a customer's page.
    this.reply('GET /estimate', (request) => list([], request));
    this.reply('GET /invoice', (request) => list([], request));
    for (const user of this.users) {
      const path = `/user/${user.id}`;
      this.reply(`GET ${path}`, () => ({ body: { result: user } }));
      this.reply(`PUT ${path}`, (request) => {
        Object.assign(user, request.body);
        return { body: { result: user } };
      });
      this.reply(`DELETE ${path}`, () => {
        this.users = this.users.filter((u) => u !== user);
        this.routes();
        return { body: { result: { id: user.id, message: 'User deleted' } } };
      });
    }
    for (const company of this.companies) {
      this.reply(`GET /company/${company.id}`, () => ({ body: { result: company } }));
      this.reply(`PUT /company/${company.id}`, (request) => {
        const changes = request.body as Partial<Company>;
        Object.assign(company, changes, changes.name ? { displayName: changes.name } : {});
        return { body: { result: company } };
      });
      this.reply(`DELETE /company/${company.id}`, () => {
        if (this.users.some((u) => u.CompanyId === company.id)) {
          return {
            status: 409,
            body: { message: 'This company still has customers. Move or delete them first.' },
          };
        }
        this.companies = this.companies.filter((c) => c !== company);
        this.routes();
        return { body: { result: { id: company.id, message: 'Company deleted' } } };
      });
    }
  }

  add(records: { users?: SiteUser[]; companies?: Company[] }): void {
    this.users.push(...(records.users ?? []));
    this.companies.push(...(records.companies ?? []));
    this.routes();
  }
}

/** Where the router is now (for navigation checks). */
function Where() {
  const { pathname } = useLocation();
  return <output data-testid="where">{pathname}</output>;
}

export function renderAdmin(path: string, permissions = 'admin') {
  const store = createAppStore();
  sessionStorage.setItem('token', 'jwt');
  store.dispatch(signedIn({ user: { ...staffUser, permissions }, token: 'jwt' }));
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/admin/*" element={<BackOffice />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}
