import { createHmac } from 'node:crypto';
import { AUDIENCES, createServiceApp, currentUser, type ServiceApp, type SessionUser } from '../src/http';
import { call, listen } from './http-helpers';

const SECRET = 'test-secret-for-session-tokens-0123456789';
const customer: SessionUser = { id: 'u-customer', permissions: 'customer', email: 'ana@example.com' };
const admin: SessionUser = { id: 'u-admin', permissions: 'admin', email: 'staff@example.com' };
const superadmin: SessionUser = { id: 'u-super', permissions: 'superadmin', email: 'boss@example.com' };

let app: ServiceApp;
let base: string;

beforeAll(async () => {
  app = await createServiceApp({
    name: 'auth-test',
    logLevel: 'silent',
    jwt: { secret: SECRET, expiresIn: '12h' },
  });
  app.get('/me', { preHandler: app.authenticate }, async (request) => ({ user: request.user }));
  app.get('/orders', { preHandler: app.requireRole('customer', 'staff') }, async (request) => ({
    id: request.user.id,
  }));
  app.get('/trucking', { preHandler: app.requireRole('staff') }, async () => ({ result: { value: 350 } }));
  app.get('/admins', { preHandler: app.requireRole('superadmin') }, async () => ({ result: [] }));
  app.get('/inventory', { preHandler: app.optionalAuth }, async (request) => ({
    viewer: currentUser(request)?.id ?? null,
  }));
  base = await listen(app);
});
afterAll(() => app.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A token signed by someone who does not know the secret, with the right shape otherwise. */
function forge(claims: object, secret = 'not-the-real-secret-at-all-000000'): string {
  const enc = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

test('a valid token reaches the route with the user on request.user', async () => {
  const res = await call(base, '/me', { headers: bearer(app.signToken(customer)) });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ user: { ...customer, sessionVersion: 0 } });
});

test('a validly signed token without the issuer and session audience, or with another audience, is refused', async () => {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: customer.id,
    permissions: 'customer',
    email: customer.email,
    iat: now,
    exp: now + 60,
  };
  for (const extra of [
    {},
    { iss: 'decor' },
    { aud: 'decor-session' },
    { iss: 'other', aud: 'decor-session' },
  ]) {
    const res = await call(base, '/me', { headers: bearer(forge({ ...claims, ...extra }, SECRET)) });
    expect(res).toMatchObject({ status: 401, body: { message: 'Invalid session token' } });
  }
  const board = app.signToken(customer, { audience: AUDIENCES.queueBoard });
  expect((await call(base, '/me', { headers: bearer(board) })).status).toBe(401);
  const good = forge({ ...claims, iss: 'decor', aud: 'decor-session' }, SECRET);
  expect((await call(base, '/me', { headers: bearer(good) })).status).toBe(200);
});

test('no token → 401 Authentication required', async () => {
  const res = await call(base, '/me');
  expect(res).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
  expect(res.headers.get('expiredtoken')).toBeNull();
});

test.each([
  ['a forged signature', () => forge({ sub: 'u1', permissions: 'superadmin', email: 'x@y.z', exp: 9e9 })],
  ['garbage', () => 'not.a.jwt'],
  [
    'alg none',
    () =>
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"u1"}').toString('base64url')}.`,
  ],
  [
    'a valid signature with the wrong claims',
    () => forge({ sub: 'u1', permissions: 'root', email: 'x@y.z' }, SECRET),
  ],
])('%s → 401 Invalid session token', async (_case, token) => {
  const res = await call(base, '/me', { headers: bearer(token()) });
  expect(res).toMatchObject({ status: 401, body: { message: 'Invalid session token' } });
});

test.each(['Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'Bearer null', 'Bearer undefined', 'Bearer '])(
  'authorization "%s" counts as no token: 401 on private routes, anonymous on public ones',
  async (authorization) => {
    const res = await call(base, '/me', { headers: { authorization } });
    expect(res).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
    expect((await call(base, '/inventory', { headers: { authorization } })).body).toEqual({ viewer: null });
  },
);

test('an expired token → 401 Your session has expired with header expiredtoken: true', async () => {
  const now = Math.floor(Date.now() / 1000);
  const expired = forge(
    {
      sub: customer.id,
      permissions: 'customer',
      email: customer.email,
      iss: 'decor',
      aud: 'decor-session',
      iat: now - 7200,
      exp: now - 60,
    },
    SECRET,
  );
  const res = await call(base, '/me', { headers: bearer(expired) });
  expect(res).toMatchObject({ status: 401, body: { message: 'Your session has expired' } });
  expect(res.headers.get('expiredtoken')).toBe('true');
});

test('a token signed with a short expiry stops working once it expires', async () => {
  const token = app.signToken(customer, { expiresIn: '1s' });
  expect((await call(base, '/me', { headers: bearer(token) })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const res = await call(base, '/me', { headers: bearer(token) });
  expect(res.status).toBe(401);
  expect(res.headers.get('expiredtoken')).toBe('true');
});

test('roles: a customer on a staff route → 403; staff is any permission containing admin', async () => {
  const asCustomer = await call(base, '/trucking', { headers: bearer(app.signToken(customer)) });
  expect(asCustomer).toMatchObject({ status: 403, body: { message: 'You are not allowed to do this' } });
  expect((await call(base, '/trucking', { headers: bearer(app.signToken(admin)) })).status).toBe(200);
  expect((await call(base, '/trucking', { headers: bearer(app.signToken(superadmin)) })).status).toBe(200);
  expect((await call(base, '/admins', { headers: bearer(app.signToken(admin)) })).status).toBe(403);
  expect((await call(base, '/admins', { headers: bearer(app.signToken(superadmin)) })).status).toBe(200);
  expect((await call(base, '/orders', { headers: bearer(app.signToken(customer)) })).body).toEqual({
    id: customer.id,
  });
  expect((await call(base, '/orders', { headers: bearer(app.signToken(admin)) })).status).toBe(200);
});

test('a role route without a token is 401, not 403', async () => {
  expect(await call(base, '/trucking')).toMatchObject({
    status: 401,
    body: { message: 'Authentication required' },
  });
});

test('optionalAuth: anonymous without a token, the user with one, 401 with a bad one', async () => {
  expect((await call(base, '/inventory')).body).toEqual({ viewer: null });
  expect((await call(base, '/inventory', { headers: bearer(app.signToken(customer)) })).body).toEqual({
    viewer: customer.id,
  });
  expect((await call(base, '/inventory', { headers: bearer(forge({ sub: 'x' })) })).status).toBe(401);
});

test('another service with the same secret accepts the token; one with another secret refuses it', async () => {
  const twin = await createServiceApp({
    name: 'twin',
    logLevel: 'silent',
    jwt: { secret: SECRET, expiresIn: '1h' },
  });
  const stranger = await createServiceApp({
    name: 'stranger',
    logLevel: 'silent',
    jwt: { secret: 'a-different-secret-entirely-9876543210', expiresIn: '1h' },
  });
  for (const other of [twin, stranger])
    other.get('/me', { preHandler: other.authenticate }, async (r) => r.user);
  try {
    const token = app.signToken(admin);
    expect((await call(await listen(twin), '/me', { headers: bearer(token) })).body).toEqual({
      ...admin,
      sessionVersion: 0,
    });
    expect((await call(await listen(stranger), '/me', { headers: bearer(token) })).status).toBe(401);
  } finally {
    await Promise.all([twin.close(), stranger.close()]);
  }
});

test('a token of an ended session (the session check) → 401 with its reason and expiredtoken: true', async () => {
  const ended = 'Your session has ended. Please sign in again.';
  const guarded = await createServiceApp({
    name: 'guarded',
    logLevel: 'silent',
    jwt: {
      secret: SECRET,
      expiresIn: '1h',
      sessions: { refusal: (id, sv) => (id === customer.id && (sv as number) < 5 ? ended : undefined) },
    },
  });
  guarded.get('/me', { preHandler: guarded.authenticate }, async (request) => request.user);
  try {
    const url = await listen(guarded);
    const old = await call(url, '/me', {
      headers: bearer(guarded.signToken(customer, { sessionVersion: 4 })),
    });
    expect(old).toMatchObject({ status: 401, body: { message: ended } });
    expect(old.headers.get('expiredtoken')).toBe('true');
    const current = guarded.signToken(customer, { sessionVersion: 5 });
    expect((await call(url, '/me', { headers: bearer(current) })).status).toBe(200);
  } finally {
    await guarded.close();
  }
});
