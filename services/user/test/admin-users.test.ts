/** Staff's users and companies calls (spec orders §3, §5, §6, §7): rules, role matrix, events. */
import { randomUUID } from 'node:crypto';
import {
  type AggregateType,
  CompanyDeleted,
  CompanyUpserted,
  type EventEnvelope,
  SessionsRevoked,
  UserCreated,
  UserDeleted,
  UserEnabled,
  UserSuspended,
  UserUpdated,
  WelcomeEmailRequested,
} from '@decor/contracts';
import { signResetToken } from '@decor/kit';
import { TEST_JWT_SECRET } from '@decor/kit/testing';
import { Types } from 'mongoose';
import { backfillSearchKeys } from '../src/store/backfill';
import {
  type Answer,
  call,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
  userEvents,
} from './support';

let service: UserServiceUnderTest;
let base: string;
const tokens: Record<'superadmin' | 'admin' | 'customer', string> = {
  superadmin: '',
  admin: '',
  customer: '',
};
let superadminId: string;
let adminId: string;

/** One aggregate's events on one of the user service's topics (`user`, `user-email`), in order. */
const eventsOn = (topic: AggregateType, aggregateId: string, events: EventEnvelope[]) =>
  events.filter((e) => e.aggregateType === topic && e.aggregateId === aggregateId);
const typesOn = (topic: AggregateType, aggregateId: string, events: EventEnvelope[]) =>
  eventsOn(topic, aggregateId, events).map((e) => e.type);

beforeAll(async () => {
  service = await startUserService();
  base = service.url;
  for (const [role, email] of [
    ['superadmin', 'owner@decor.example'],
    ['admin', 'staff@decor.example'],
    ['customer', 'customer@decor.example'],
  ] as const) {
    const answer = await signIn(base, email, 'demo1234');
    expect(answer.status).toBe(200);
    tokens[role] = answer.body.result.token;
    if (role === 'superadmin') superadminId = answer.body.result.user.id;
    if (role === 'admin') adminId = answer.body.result.user.id;
  }
});
afterAll(() => stopAndClean(service));

const tag = () => randomUUID().slice(0, 8);
const as = (role: keyof typeof tokens) => tokens[role];

function expectMessage(answer: Answer, status: number, message: string) {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { message } });
}

async function newCompany(name = `Co ${tag()}`, extra: Record<string, unknown> = {}) {
  const answer = await call(base, '/company', {
    method: 'POST',
    token: as('admin'),
    json: { name, street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701', ...extra },
  });
  expect(answer.status).toBe(201);
  return answer.body.result as { id: string; name: string; displayName: string; qboId: string | null };
}

function customerBody(companyId: string, extra: Record<string, unknown> = {}) {
  const t = tag();
  return {
    permissions: 'customer',
    CompanyId: companyId,
    ownCompany: `Own ${t}`,
    displayName: `Ava ${t}`,
    email: `ava.${t}@example.com`,
    firstName: 'Ava',
    lastName: 'Thompson',
    phone: '512-555-0100',
    ...extra,
  };
}

async function newCustomer(companyId: string, extra: Record<string, unknown> = {}) {
  const answer = await call(base, '/user', {
    method: 'POST',
    token: as('admin'),
    json: customerBody(companyId, extra),
  });
  expect(answer.status).toBe(201);
  return answer.body.result as { id: string; email: string; displayName: string };
}

describe('role matrix of the new routes', () => {
  const id = '0123456789abcdef01234567';
  // Every row has all three values: jest takes a test function with more parameters than the row for a done-callback one.
  const routes: [string, string, unknown][] = [
    ['GET', '/user', undefined],
    ['POST', '/user', { permissions: 'customer', email: 'x@y.example' }],
    ['DELETE', `/user/${id}`, undefined],
    ['GET', '/company', undefined],
    ['GET', `/company/${id}`, undefined],
    ['POST', '/company', { name: 'X' }],
    ['PUT', `/company/${id}`, { city: 'X' }],
    ['DELETE', `/company/${id}`, undefined],
    ['POST', '/send/welcomeEmail', { email: 'x@y.example' }],
  ];
  it.each(routes)('%s %s: visitor 401, customer 403', async (method, path, json) => {
    expectMessage(await call(base, path, { method, json }), 401, 'Authentication required');
    expectMessage(
      await call(base, path, { method, json, token: as('customer') }),
      403,
      'You are not allowed to do this',
    );
  });

  it('PUT /user/{id} with profile fields or active: visitor 401, customer 403 (also on themself)', async () => {
    const me = (await call(base, '/auth/jwt', { token: as('customer') })).body.result.id as string;
    expectMessage(
      await call(base, `/user/${me}`, { method: 'PUT', json: { active: false } }),
      401,
      'Authentication required',
    );
    for (const json of [{ active: false }, { firstName: 'Me' }]) {
      expectMessage(
        await call(base, `/user/${me}`, { method: 'PUT', json, token: as('customer') }),
        403,
        'You are not allowed to do this',
      );
    }
  });

  it('admin and superadmin may list users and companies', async () => {
    for (const role of ['admin', 'superadmin'] as const) {
      expect((await call(base, '/user', { token: as(role) })).status).toBe(200);
      expect((await call(base, '/company', { token: as(role) })).status).toBe(200);
    }
  });
});

describe('GET /user', () => {
  it('filters by permissions and company prefix, orders by company, pages, and counts in total_count', async () => {
    const company = await newCompany();
    const t = tag();
    for (const own of [`Zeta ${t}`, `alpha ${t}`, `Beta ${t}`])
      await newCustomer(company.id, { ownCompany: own });
    await newCustomer(company.id, { ownCompany: `Other ${t}` });

    const page = await call(
      base,
      `/user?permissions=customer&order=ownCompany:ASC&limit=2&CompanyId=${company.id}`,
      {
        token: as('admin'),
      },
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('total_count')).toBe('4');
    expect(page.body.result.map((u: { ownCompany: string }) => u.ownCompany)).toEqual([
      `alpha ${t}`,
      `Beta ${t}`,
    ]);
    const next = await call(
      base,
      `/user?permissions=customer&order=ownCompany:ASC&limit=2&offset=2&CompanyId=${company.id}`,
      {
        token: as('admin'),
      },
    );
    expect(next.body.result.map((u: { ownCompany: string }) => u.ownCompany)).toEqual([
      `Other ${t}`,
      `Zeta ${t}`,
    ]);

    // Case-insensitive prefix on the company name.
    const found = await call(base, `/user?like=ownCompany:${encodeURIComponent(`ZETA ${t}`)}`, {
      token: as('admin'),
    });
    expect(found.headers.get('total_count')).toBe('1');
    expect(found.body.result[0]).toMatchObject({
      ownCompany: `Zeta ${t}`,
      permissions: 'customer',
      active: true,
    });
    expect(Object.keys(found.body.result[0]).sort()).toEqual(
      [
        'CompanyId',
        'active',
        'displayName',
        'email',
        'firstName',
        'id',
        'lastName',
        'ownCompany',
        'permissions',
        'phone',
        'qboId',
      ].sort(),
    );
    // Regex syntax is matched literally.
    expect(
      (await call(base, '/user?like=ownCompany:.*', { token: as('admin') })).headers.get('total_count'),
    ).toBe('0');
  });

  it('lists staff by permissions (repeatable), never customers then', async () => {
    const admins = await call(base, '/user?permissions=admin&permissions=superadmin&limit=100', {
      token: as('superadmin'),
    });
    expect(admins.status).toBe(200);
    const perms = new Set(admins.body.result.map((u: { permissions: string }) => u.permissions));
    expect([...perms].sort()).toEqual(['admin', 'superadmin']);
    const one = await call(base, '/user?permissions=admin', { token: as('superadmin') });
    expect(one.body.result.every((u: { permissions: string }) => u.permissions === 'admin')).toBe(true);
  });

  it.each([
    ['an unknown permission', 'permissions=owner'],
    ['an unknown parameter', 'role=admin'],
    ['a field it cannot order by', 'order=passwordHash:ASC'],
    ['a field it cannot search', 'like=passwordHash:s'],
    ['a limit over 100', 'limit=101'],
  ])('refuses %s (400)', async (_what, query) => {
    const answer = await call(base, `/user?${query}`, { token: as('admin') });
    expect(answer.status).toBe(400);
    expect(typeof answer.body.message).toBe('string');
  });
});

describe('POST /user', () => {
  it('creates a customer under an existing company, announced by UserCreated and a welcome e-mail request', async () => {
    const company = await newCompany();
    const body = customerBody(company.id, { email: `Mixed.${tag()}@Example.com` });
    const answer = await call(base, '/user', { method: 'POST', token: as('admin'), json: body });
    expect(answer.status).toBe(201);
    const user = answer.body.result;
    expect(user).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      firstName: 'Ava',
      lastName: 'Thompson',
      displayName: body.displayName,
      email: body.email.trim().toLowerCase(),
      phone: '512-555-0100',
      permissions: 'customer',
      active: true,
      ownCompany: body.ownCompany,
      CompanyId: company.id,
      qboId: null,
    });
    expect((await call(base, `/user/${user.id}`, { token: as('superadmin') })).body.result).toEqual(user);

    // Two topics: wait for each one's event.
    const events = await userEvents(
      service.ctx.kafka,
      (all) =>
        all.some((e) => e.aggregateId === user.id && e.type === UserCreated.type) &&
        all.some((e) => e.aggregateId === user.id && e.type === WelcomeEmailRequested.type),
    );
    // The e-mail request travels on a topic of its own, which only the notification service reads.
    const [created] = eventsOn('user', user.id, events);
    const [welcomed] = eventsOn('user-email', user.id, events);
    expect(typesOn('user', user.id, events)).toEqual([UserCreated.type]);
    expect(typesOn('user-email', user.id, events)).toEqual([WelcomeEmailRequested.type]);
    expect(created?.payload).toMatchObject({
      userId: user.id,
      email: user.email,
      displayName: body.displayName,
      permissions: 'customer',
      companyId: company.id,
      ownCompany: body.ownCompany,
    });
    expect(created?.payload).not.toHaveProperty('qboId');
    const welcome = welcomed?.payload as {
      userId: string;
      resetId: string;
      expiresAt: string;
      email: string;
    };
    expect(welcome.email).toBe(user.email);
    // The link the notification worker mints from it is a working reset token: the reset page reads
    // who it belongs to.
    const link = await call(base, '/auth/resetLink', { token: signResetToken(TEST_JWT_SECRET, welcome) });
    expect(link.body).toEqual({ result: { email: user.email, id: user.id } });
  });

  it('imports keep their QuickBooks id and send no welcome e-mail unless asked', async () => {
    const company = await newCompany(undefined, { qboId: `q${tag()}` });
    expect(company.qboId).toMatch(/^q/);
    const quiet = await newCustomer(company.id, {
      qboId: '71',
      ownCompany: undefined,
      phone: undefined,
      displayName: undefined,
    });
    const asked = await newCustomer(company.id, { qboId: '72', sendWelcomeEmail: true });
    const quietView = (await call(base, `/user/${quiet.id}`, { token: as('admin') })).body.result;
    // Company name from the parent company, display name from the name parts.
    expect(quietView).toMatchObject({
      qboId: '71',
      ownCompany: company.name,
      displayName: 'Ava Thompson',
      phone: null,
    });

    // Different users may sit on different partitions: wait for both (and the company).
    const events = await userEvents(
      service.ctx.kafka,
      (all) =>
        all.some((e) => e.aggregateId === asked.id && e.type === WelcomeEmailRequested.type) &&
        all.some((e) => e.aggregateId === asked.id && e.type === UserCreated.type) &&
        all.some((e) => e.aggregateId === quiet.id) &&
        all.some((e) => e.aggregateId === company.id),
    );
    expect(typesOn('user', quiet.id, events)).toEqual([UserCreated.type]);
    expect(typesOn('user-email', quiet.id, events)).toEqual([]);
    expect(typesOn('user', asked.id, events)).toEqual([UserCreated.type]);
    expect(typesOn('user-email', asked.id, events)).toEqual([WelcomeEmailRequested.type]);
    const created = events.find((e) => e.aggregateId === quiet.id)?.payload;
    expect(created).toMatchObject({ qboId: '71', welcome: false });
    const companyEvent = events.find((e) => e.aggregateId === company.id && e.type === CompanyUpserted.type);
    expect(companyEvent?.payload).toMatchObject({
      qboId: company.qboId,
      name: company.name,
      displayName: company.name,
    });
  });

  it('needs an existing parent company for a customer: 400 Please select a parent company', async () => {
    const company = await newCompany();
    for (const CompanyId of [undefined, '', '0123456789abcdef01234567', 'not-an-id']) {
      const json = { ...customerBody(company.id), CompanyId };
      if (CompanyId === undefined) delete (json as Record<string, unknown>).CompanyId;
      expectMessage(
        await call(base, '/user', { method: 'POST', token: as('admin'), json }),
        400,
        'Please select a parent company',
      );
    }
  });

  it.each(['ownCompany', 'displayName', 'firstName', 'lastName', 'phone'])(
    'refuses a customer without %s (400, This field is required style)',
    async (field) => {
      const company = await newCompany();
      const json = customerBody(company.id, { [field]: '   ' });
      expectMessage(
        await call(base, '/user', { method: 'POST', token: as('admin'), json }),
        400,
        `${field} is required`,
      );
    },
  );

  it('refuses a malformed e-mail with the spec text', async () => {
    const company = await newCompany();
    const json = customerBody(company.id, { email: 'not-an-address' });
    expectMessage(
      await call(base, '/user', { method: 'POST', token: as('admin'), json }),
      400,
      'Please provide a valid email address',
    );
  });

  it('refuses a second account with the same e-mail (409), whatever its case', async () => {
    const company = await newCompany();
    const first = await newCustomer(company.id);
    const json = customerBody(company.id, { email: first.email.toUpperCase() });
    expectMessage(
      await call(base, '/user', { method: 'POST', token: as('admin'), json }),
      409,
      'A user with this email already exists',
    );
  });

  it('only a superadmin creates admins: an admin gets 403; phone optional', async () => {
    const json = {
      permissions: 'admin',
      email: `adm.${tag()}@example.com`,
      firstName: 'Ada',
      lastName: 'Admin',
    };
    expectMessage(
      await call(base, '/user', { method: 'POST', token: as('admin'), json }),
      403,
      'Only a superadmin can manage admins',
    );
    const created = await call(base, '/user', { method: 'POST', token: as('superadmin'), json });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({
      permissions: 'admin',
      CompanyId: null,
      ownCompany: null,
      phone: null,
    });
    const superadmin = await call(base, '/user', {
      method: 'POST',
      token: as('superadmin'),
      json: { ...json, permissions: 'superadmin', email: `s.${tag()}@example.com` },
    });
    expect(superadmin.status).toBe(400);
  });

  it('refuses unknown fields (password, permissions changes)', async () => {
    const company = await newCompany();
    const answer = await call(base, '/user', {
      method: 'POST',
      token: as('admin'),
      json: customerBody(company.id, { password: 'x' }),
    });
    expectMessage(answer, 400, "Unknown field 'password'");
  });
});

describe('PUT /user/{id}: Suspend / Enable and profile', () => {
  it('suspends: sign-in refused with a clear 403, then enabled: sign-in works again; events say so', async () => {
    const company = await newCompany();
    const customer = await newCustomer(company.id);
    // Give the customer a password through the welcome link.
    await service.ctx.users.updateOne(
      { _id: customer.id },
      {
        $set: {
          passwordHash: (await service.ctx.users.findOne({ email: 'customer@decor.example' }))?.passwordHash,
        },
      },
    );
    expect((await signIn(base, customer.email, 'demo1234')).status).toBe(200);

    const suspended = await call(base, `/user/${customer.id}`, {
      method: 'PUT',
      token: as('admin'),
      json: { active: false },
    });
    expect(suspended.status).toBe(200);
    expect(suspended.body.result).toMatchObject({ id: customer.id, active: false });
    expectMessage(
      await signIn(base, customer.email, 'demo1234'),
      403,
      'Your account is suspended. Please contact us.',
    );

    const enabled = await call(base, `/user/${customer.id}`, {
      method: 'PUT',
      token: as('superadmin'),
      json: { active: true },
    });
    expect(enabled.body.result.active).toBe(true);
    expect((await signIn(base, customer.email, 'demo1234')).status).toBe(200);

    const events = await userEvents(
      service.ctx.kafka,
      (all) =>
        all.some((e) => e.aggregateId === customer.id && e.type === UserEnabled.type) &&
        all.some((e) => e.aggregateId === customer.id && e.type === WelcomeEmailRequested.type),
    );
    expect(typesOn('user-email', customer.id, events)).toEqual([WelcomeEmailRequested.type]);
    expect(typesOn('user', customer.id, events)).toEqual([
      UserCreated.type,
      UserUpdated.type,
      UserSuspended.type,
      SessionsRevoked.type,
      UserUpdated.type,
      UserEnabled.type,
    ]);
  });

  it('changes profile fields (UserUpdated with the whole state); the same values again write nothing', async () => {
    const company = await newCompany();
    const other = await newCompany();
    const customer = await newCustomer(company.id);
    const json = {
      firstName: 'Bea',
      displayName: 'Bea Q',
      phone: '555-0000',
      ownCompany: 'New Own',
      CompanyId: other.id,
    };
    const answer = await call(base, `/user/${customer.id}`, { method: 'PUT', token: as('admin'), json });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject(json);
    const again = await call(base, `/user/${customer.id}`, { method: 'PUT', token: as('admin'), json });
    expect(again.body.result).toMatchObject(json);
    const stored = await service.ctx.users.findById(customer.id).lean();
    expect(stored?.revision).toBe(2);
    expect(stored?.ownCompanyKey).toBe('new own');
    const events = await userEvents(service.ctx.kafka, (all) =>
      all.some((e) => e.aggregateId === customer.id && e.type === UserUpdated.type),
    );
    const updated = events.filter((e) => e.aggregateId === customer.id && e.type === UserUpdated.type);
    expect(updated).toHaveLength(1);
    expect(updated[0]?.payload).toMatchObject({
      displayName: 'Bea Q',
      companyId: other.id,
      ownCompany: 'New Own',
      active: true,
    });
  });

  it('refuses a taken e-mail (409), a missing company (400), a blank name (400), an unknown user (404)', async () => {
    const company = await newCompany();
    const a = await newCustomer(company.id);
    const b = await newCustomer(company.id);
    const put = (id: string, json: unknown) =>
      call(base, `/user/${id}`, { method: 'PUT', token: as('admin'), json });
    expectMessage(await put(a.id, { email: b.email }), 409, 'A user with this email already exists');
    expectMessage(
      await put(a.id, { CompanyId: '0123456789abcdef01234567' }),
      400,
      'Please select a parent company',
    );
    expectMessage(await put(a.id, { lastName: ' ' }), 400, 'lastName is required');
    expectMessage(await put('0123456789abcdef01234567', { active: false }), 404, 'User not found');
    expectMessage(await put(a.id, {}), 400, 'Nothing to change');
    expectMessage(await put(a.id, { phone: null }), 400, 'phone is required');
    expectMessage(
      await put(a.id, { active: false, password: 'secret-123' }),
      400,
      'The password is changed on its own, without other fields',
    );
  });

  it('only a superadmin suspends or changes an admin; nobody suspends themself', async () => {
    expectMessage(
      await call(base, `/user/${superadminId}`, {
        method: 'PUT',
        token: as('admin'),
        json: { active: false },
      }),
      403,
      'Only a superadmin can manage admins',
    );
    const json = {
      permissions: 'admin',
      email: `adm.${tag()}@example.com`,
      firstName: 'Ada',
      lastName: 'Admin',
    };
    const created = (await call(base, '/user', { method: 'POST', token: as('superadmin'), json })).body
      .result;
    expectMessage(
      await call(base, `/user/${created.id}`, { method: 'PUT', token: as('admin'), json: { active: false } }),
      403,
      'Only a superadmin can manage admins',
    );
    expectMessage(
      await call(base, `/user/${adminId}`, { method: 'PUT', token: as('admin'), json: { firstName: 'X' } }),
      403,
      'Only a superadmin can manage admins',
    );
    const bySuper = await call(base, `/user/${created.id}`, {
      method: 'PUT',
      token: as('superadmin'),
      json: { active: false },
    });
    expect(bySuper.body.result.active).toBe(false);
    expectMessage(
      await call(base, `/user/${superadminId}`, {
        method: 'PUT',
        token: as('superadmin'),
        json: { active: false },
      }),
      409,
      'You cannot suspend your own account',
    );
  });
});

describe('DELETE /user/{id}', () => {
  it('deletes a customer for good: gone from reads and lists, sign-in refused, e-mail free again, UserDeleted', async () => {
    const company = await newCompany();
    const customer = await newCustomer(company.id);
    const answer = await call(base, `/user/${customer.id}`, { method: 'DELETE', token: as('admin') });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: { id: customer.id, message: 'User deleted' } });
    expectMessage(await call(base, `/user/${customer.id}`, { token: as('admin') }), 404, 'User not found');
    expectMessage(
      await call(base, `/user/${customer.id}`, { method: 'DELETE', token: as('admin') }),
      404,
      'User not found',
    );
    const list = await call(base, `/user?CompanyId=${company.id}`, { token: as('admin') });
    expect(list.headers.get('total_count')).toBe('0');
    expectMessage(await signIn(base, customer.email, 'anything'), 403, 'Incorrect username or password');
    // The address can be used again.
    await newCustomer(company.id, { email: customer.email });

    const events = await userEvents(service.ctx.kafka, (all) =>
      all.some((e) => e.aggregateId === customer.id && e.type === UserDeleted.type),
    );
    const deleted = events.find((e) => e.aggregateId === customer.id && e.type === UserDeleted.type);
    expect(deleted?.payload).toMatchObject({
      userId: customer.id,
      email: customer.email,
      permissions: 'customer',
    });
  });

  it('only a superadmin deletes admins; nobody deletes themself', async () => {
    const json = {
      permissions: 'admin',
      email: `adm.${tag()}@example.com`,
      firstName: 'Ada',
      lastName: 'Admin',
    };
    const created = (await call(base, '/user', { method: 'POST', token: as('superadmin'), json })).body
      .result;
    expectMessage(
      await call(base, `/user/${created.id}`, { method: 'DELETE', token: as('admin') }),
      403,
      'Only a superadmin can manage admins',
    );
    expectMessage(
      await call(base, `/user/${superadminId}`, { method: 'DELETE', token: as('superadmin') }),
      409,
      'You cannot delete your own account',
    );
    expect(
      (await call(base, `/user/${created.id}`, { method: 'DELETE', token: as('superadmin') })).status,
    ).toBe(200);
  });
});

describe('companies', () => {
  it('creates with display name = name, reads, lists with prefix search, order, attributes and total_count', async () => {
    const t = tag();
    const names = [`Mango ${t}`, `apple ${t}`, `Kiwi ${t}`];
    const created = [];
    for (const name of names) created.push(await newCompany(name, { displayName: 'ignored', phone: '' }));
    expect(created[0]).toEqual({
      id: expect.any(String),
      name: `Mango ${t}`,
      displayName: `Mango ${t}`,
      street: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      phone: null,
      qboId: null,
    });
    expect((await call(base, `/company/${created[1]?.id}`, { token: as('admin') })).body.result.name).toBe(
      `apple ${t}`,
    );

    const search = await call(base, `/company?like=name:${encodeURIComponent(`APPLE ${t}`)}`, {
      token: as('admin'),
    });
    expect(search.headers.get('total_count')).toBe('1');

    const ordered = await call(
      base,
      `/company?order=displayName:ASC&limit=100&attributes=qboId,name,id,displayName`,
      {
        token: as('admin'),
      },
    );
    const mine = ordered.body.result.filter((c: { name: string }) => c.name.endsWith(t));
    expect(mine.map((c: { name: string }) => c.name)).toEqual([`apple ${t}`, `Kiwi ${t}`, `Mango ${t}`]);
    expect(Object.keys(mine[0]).sort()).toEqual(['displayName', 'id', 'name', 'qboId']);
    const paged = await call(base, '/company?limit=1&offset=1', { token: as('admin') });
    expect(paged.body.result).toHaveLength(1);
    expect(Number(paged.headers.get('total_count'))).toBeGreaterThanOrEqual(3);
    expect((await call(base, '/company?attributes=passwordHash', { token: as('admin') })).status).toBe(400);
  });

  it('refuses missing fields (400) and a taken name (409)', async () => {
    for (const field of ['name', 'street', 'city', 'state', 'zipCode']) {
      const json = { name: `N ${tag()}`, street: 's', city: 'c', state: 'st', zipCode: 'z', [field]: '' };
      expectMessage(
        await call(base, '/company', { method: 'POST', token: as('admin'), json }),
        400,
        `${field} is required`,
      );
    }
    const taken = await newCompany();
    const json = { name: taken.name, street: 's', city: 'c', state: 'st', zipCode: 'z' };
    expectMessage(
      await call(base, '/company', { method: 'POST', token: as('admin'), json }),
      409,
      'A company with this name already exists',
    );
  });

  it('changes a company (display name follows the name) with CompanyUpserted', async () => {
    const company = await newCompany();
    const name = `Renamed ${tag()}`;
    const answer = await call(base, `/company/${company.id}`, {
      method: 'PUT',
      token: as('admin'),
      json: { name, phone: '1' },
    });
    expect(answer.body.result).toMatchObject({ name, displayName: name, phone: '1' });
    // The form may send null (or '') for the optional phone: it is cleared.
    const cleared = await call(base, `/company/${company.id}`, {
      method: 'PUT',
      token: as('admin'),
      json: { phone: null },
    });
    expect(cleared.body.result.phone).toBeNull();
    expectMessage(
      await call(base, '/company/0123456789abcdef01234567', {
        method: 'PUT',
        token: as('admin'),
        json: { city: 'x' },
      }),
      404,
      'Company not found',
    );
    expectMessage(
      await call(base, `/company/${company.id}`, { method: 'PUT', token: as('admin'), json: { city: '' } }),
      400,
      'city is required',
    );
    // Created, renamed (with a phone), phone cleared: one event each, in order, nothing for the refusals.
    const mine = (all: EventEnvelope[]) => all.filter((e) => e.aggregateId === company.id);
    const events = mine(await userEvents(service.ctx.kafka, (all) => mine(all).length >= 3));
    expect(events.map((e) => (e.payload as { name: string; phone?: string }).phone ?? null)).toEqual([
      null,
      '1',
      null,
    ]);
    expect(events.map((e) => (e.payload as { name: string }).name)[1]).toBe(name);
    expect(events.every((e) => e.type === CompanyUpserted.type)).toBe(true);
  });

  it('deletes only a company without customers (409 while it has); its customers cannot join it after', async () => {
    const company = await newCompany();
    const customer = await newCustomer(company.id);
    expectMessage(
      await call(base, `/company/${company.id}`, { method: 'DELETE', token: as('admin') }),
      409,
      'This company still has customers. Move or delete them first.',
    );
    expect((await call(base, `/company/${company.id}`, { token: as('admin') })).status).toBe(200);
    expect((await call(base, `/user/${customer.id}`, { method: 'DELETE', token: as('admin') })).status).toBe(
      200,
    );
    const deleted = await call(base, `/company/${company.id}`, { method: 'DELETE', token: as('admin') });
    expect(deleted.body).toEqual({ result: { id: company.id, message: 'Company deleted' } });
    expectMessage(
      await call(base, `/company/${company.id}`, { token: as('admin') }),
      404,
      'Company not found',
    );
    expectMessage(
      await call(base, '/user', { method: 'POST', token: as('admin'), json: customerBody(company.id) }),
      400,
      'Please select a parent company',
    );
    // The name is free again.
    await newCompany(company.name);
    const events = await userEvents(service.ctx.kafka, (all) =>
      all.some((e) => e.aggregateId === company.id && e.type === CompanyDeleted.type),
    );
    expect(
      events.find((e) => e.type === CompanyDeleted.type && e.aggregateId === company.id)?.payload,
    ).toEqual({
      companyId: company.id,
      name: company.name,
    });
  });

  it('a customer created while its company is being deleted is undone (no orphan)', async () => {
    const company = await newCompany();
    // The deletion has marked the company and is counting customers.
    await service.ctx.companies.updateOne({ _id: company.id }, { $set: { deleting: new Date() } });
    expectMessage(
      await call(base, '/user', { method: 'POST', token: as('admin'), json: customerBody(company.id) }),
      400,
      'Please select a parent company',
    );
    expect(await service.ctx.users.countDocuments({ CompanyId: company.id, deletedAt: null })).toBe(0);
  });
});

describe('POST /send/welcomeEmail', () => {
  it('requests one welcome e-mail per call with a new set-password link; unknown e-mail 404, malformed 400', async () => {
    const company = await newCompany();
    const customer = await newCustomer(company.id, { sendWelcomeEmail: false });
    for (let i = 0; i < 2; i++) {
      const answer = await call(base, '/send/welcomeEmail', {
        method: 'POST',
        token: as('admin'),
        json: { email: customer.email.toUpperCase() },
      });
      expect(answer.body).toEqual({ result: { message: 'The welcome email has been sent' } });
    }
    const events = await userEvents(
      service.ctx.kafka,
      (all) =>
        all.filter((e) => e.aggregateId === customer.id && e.type === WelcomeEmailRequested.type).length >= 2,
    );
    const requests = events.filter(
      (e) => e.aggregateId === customer.id && e.type === WelcomeEmailRequested.type,
    );
    expect(requests).toHaveLength(2);
    const [first, second] = requests.map((e) =>
      signResetToken(TEST_JWT_SECRET, e.payload as { userId: string; resetId: string; expiresAt: string }),
    );
    // Only the newest link works.
    expect((await call(base, '/auth/resetLink', { token: first })).status).toBe(401);
    expect((await call(base, '/auth/resetLink', { token: second })).status).toBe(200);

    // A suspended account's link would not work: no welcome e-mail for it.
    await call(base, `/user/${customer.id}`, { method: 'PUT', token: as('admin'), json: { active: false } });
    expectMessage(
      await call(base, '/send/welcomeEmail', {
        method: 'POST',
        token: as('admin'),
        json: { email: customer.email },
      }),
      409,
      'This account is suspended. Enable it before sending the welcome email.',
    );

    expectMessage(
      await call(base, '/send/welcomeEmail', {
        method: 'POST',
        token: as('admin'),
        json: { email: 'nobody@example.com' },
      }),
      404,
      'User not found',
    );
    expectMessage(
      await call(base, '/send/welcomeEmail', { method: 'POST', token: as('admin'), json: { email: 'nope' } }),
      400,
      'Please provide a valid email address',
    );
  });
});

it('gives records stored without search keys their keys at start, so searches find them', async () => {
  const t = tag();
  const companyId = new Types.ObjectId();
  const userId = new Types.ObjectId();
  await service.ctx.companies.collection.insertOne({
    _id: companyId,
    name: `Legacy ${t}`,
    displayName: `Legacy ${t}`,
    outbox: [],
  });
  await service.ctx.users.collection.insertOne({
    _id: userId,
    email: `legacy.${t}@example.com`,
    firstName: 'Lee',
    lastName: 'Gacy',
    permissions: 'customer',
    active: true,
    ownCompany: `Legacy ${t}`,
    CompanyId: companyId.toString(),
    outbox: [],
  });
  const search = () => call(base, `/user?like=ownCompany:legacy ${t}`, { token: as('admin') });
  expect((await search()).headers.get('total_count')).toBe('0');
  await backfillSearchKeys(service.ctx);
  expect((await search()).body.result.map((u: { id: string }) => u.id)).toEqual([userId.toString()]);
  const companies = await call(base, `/company?like=name:LEGACY ${t}`, { token: as('admin') });
  expect(companies.body.result.map((c: { id: string }) => c.id)).toEqual([companyId.toString()]);
});
