import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { gatewayTestEnv, JWT_SECRET } from '@decor/gateway/testing';
import { RUN_ID, serviceEnv } from '@decor/kit/testing';
import { createSigner } from 'fast-jwt';
import { type Stack, startStack } from '../src/stack';

const CUSTOMER = 'customer@decor.example';
const PASSWORD = 'demo1234';

let stack: Stack;
let api: string;

beforeAll(async () => {
  stack = await startStack({ notification: false });
  api = `${stack.gatewayUrl}/api`;
});
afterAll(() => stack.stop());

async function signIn(email: string, password: string) {
  return fetch(`${api}/auth/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

const get = (path: string, token?: string) =>
  fetch(`${api}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe('sessions through the gateway', () => {
  it('signs in and returns the token in the header and the body', async () => {
    const res = await signIn(CUSTOMER, PASSWORD);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { token: string; permissions: string } };
    expect(body.result.permissions).toBe('customer');
    expect(res.headers.get('token')).toBe(body.result.token);
  });

  it('answers a wrong password and an unknown e-mail alike', async () => {
    for (const res of [await signIn(CUSTOMER, 'wrong'), await signIn('nobody@decor.example', PASSWORD)]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: 'Incorrect username or password' });
    }
  });

  it('lets a valid token through to the service', async () => {
    const token = ((await (await signIn(CUSTOMER, PASSWORD)).json()) as { result: { token: string } }).result
      .token;
    const res = await get('/auth/jwt', token);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { email: string } }).result.email).toBe(CUSTOMER);
  });

  it('refuses a missing, a forged and an expired token with 401 and a message', async () => {
    const missing = await get('/user/whoever');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: 'Authentication required' });

    const forgedToken = createSigner({ key: 'not-the-real-secret-at-all' })({
      sub: 'x',
      permissions: 'superadmin',
      email: 'a@b.c',
    });
    const forged = await get('/user/whoever', forgedToken);
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ message: 'Invalid session token' });

    const expiredToken = createSigner({
      key: JWT_SECRET,
      iss: 'decor',
      aud: 'decor-session',
      clockTimestamp: Date.now() - 24 * 3600_000,
      expiresIn: 3600_000,
    })({
      sub: '0123456789abcdef01234567',
      permissions: 'customer',
      email: CUSTOMER,
    });
    const expired = await get('/user/whoever', expiredToken);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('expiredtoken')).toBe('true');
    expect(await expired.json()).toEqual({ message: 'Your session has expired' });
  });

  it('refuses a forged token at the service too, when it is reached directly', async () => {
    const forgedToken = createSigner({ key: 'not-the-real-secret-at-all' })({
      sub: 'x',
      permissions: 'customer',
      email: 'a@b.c',
    });
    const res = await fetch(`${stack.user.url}/auth/jwt`, {
      headers: { authorization: `Bearer ${forgedToken}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid session token' });
  });

  it('gives a customer token 403 on a staff route', async () => {
    const token = ((await (await signIn(CUSTOMER, PASSWORD)).json()) as { result: { token: string } }).result
      .token;
    const res = await get('/users', token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'You are not allowed to do this' });
  });

  it('exposes the headers the spec clients read to browsers on other origins', async () => {
    const res = await fetch(`${api}/auth/user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const signed = await fetch(`${api}/auth/user`, {
      method: 'POST',
      headers: { origin: 'http://localhost:3000', 'content-type': 'application/json' },
      body: JSON.stringify({ email: CUSTOMER, password: PASSWORD }),
    });
    const exposed = signed.headers.get('access-control-expose-headers') ?? '';
    for (const h of ['token', 'total_count', 'can-be-modified', 'expiredtoken']) expect(exposed).toContain(h);
  });

  it('rate-limits sign-in attempts per client with a readable 429', async () => {
    const strict = await buildGateway(
      loadGatewayConfig({
        ...gatewayTestEnv(await serviceEnv('gateway')),
        // Counters of its own: the stack's gateway counted this file's earlier sign-ins in the shared ones.
        REDIS_PREFIX: `${RUN_ID}-strict`,
        USER_SERVICE_URL: stack.user.url,
        AUTH_RATE_LIMIT_PER_MINUTE: '3',
        GATEWAY_CACHE_TTL_MS: '0',
      }),
      { logLevel: 'silent' },
    );
    const url = await strict.listen({ port: 0, host: '127.0.0.1' });
    try {
      const attempt = () =>
        fetch(`${url}/api/auth/user`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: CUSTOMER, password: 'wrong' }),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await attempt()).status);
      expect(statuses).toEqual([403, 403, 403, 429]);
      const limited = await attempt();
      expect(await limited.json()).toEqual({ message: 'Too many requests, please try again in a minute' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Other routes are not limited by the sign-in budget.
      expect((await fetch(`${url}/api/users`)).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});
