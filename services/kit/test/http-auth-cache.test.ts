/**
 * `verifyCacheSize` (the gateway's setting): a remembered token is still refused once it expires,
 * forged tokens are refused every time, and the viewer classes public reads are keyed by.
 */
import { createHmac } from 'node:crypto';
import { createServiceApp, type ServiceApp, type SessionUser } from '../src/http';
import { call, listen } from './http-helpers';

const SECRET = 'test-secret-for-session-tokens-0123456789';
const customer: SessionUser = { id: 'u-customer', permissions: 'customer', email: 'ana@example.com' };

let app: ServiceApp;
let base: string;

beforeAll(async () => {
  app = await createServiceApp({
    name: 'auth-cache-test',
    logLevel: 'silent',
    jwt: { secret: SECRET, expiresIn: '12h', verifyCacheSize: 100 },
  });
  app.get('/me', { preHandler: app.authenticate }, async (request) => ({ user: request.user }));
  base = await listen(app);
});
afterAll(() => app.close());

const me = (token: string) => call(base, '/me', { headers: { authorization: `Bearer ${token}` } });

test('a remembered token is refused as expired once its time is up', async () => {
  const token = app.signToken(customer, { expiresIn: '2s' });
  for (let i = 0; i < 3; i++)
    expect((await me(token)).body).toEqual({ user: { ...customer, sessionVersion: 0 } });
  await new Promise((r) => setTimeout(r, 2100));
  const late = await me(token);
  expect(late).toMatchObject({ status: 401, body: { message: 'Your session has expired' } });
  expect(late.headers.get('expiredtoken')).toBe('true');
});

test('a forged token, or a signed one with the wrong claims, is refused every time', async () => {
  const enc = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const sign = (claims: object, secret: string) => {
    const unsigned = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
    return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
  };
  const claims = {
    sub: 'u1',
    permissions: 'superadmin',
    email: 'x@y.z',
    iss: 'decor',
    aud: 'decor-session',
    exp: 9e9,
  };
  const forged = sign(claims, 'not-the-real-secret-at-all-000000');
  const wrongClaims = sign({ ...claims, permissions: 'root' }, SECRET);
  for (const token of [forged, forged, wrongClaims, wrongClaims]) {
    expect(await me(token)).toMatchObject({ status: 401, body: { message: 'Invalid session token' } });
  }
  // The genuine token of the same claims still passes.
  expect((await me(sign(claims, SECRET))).status).toBe(200);
});
