import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { gatewayTestEnv } from '@decor/gateway/testing';
import type { ServiceApp } from '@decor/kit';
import { RUN_ID, serviceEnv } from '@decor/kit/testing';
import { type Stack, startStack } from '../src/stack';

// Limits per client ip (gateway) and per account (user service), counted in this file's Redis keys.
const ACCOUNT_FAILURES = 10; // the user service's SIGN_IN_FAILURES_PER_ACCOUNT default

let stack: Stack;
const gateways: ServiceApp[] = [];

beforeAll(async () => {
  stack = await startStack({ notification: false });
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await stack?.stop();
});

/** Another gateway in front of the same user service, sharing this file's Redis (or `prefix`'s). */
async function gateway(env: Record<string, string>): Promise<string> {
  const app = await buildGateway(
    loadGatewayConfig({
      ...gatewayTestEnv(await serviceEnv('gateway')),
      USER_SERVICE_URL: stack.user.url,
      GATEWAY_CACHE_TTL_MS: '0',
      ...env,
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  gateways.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

const signIn = (base: string, email: string, password: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/auth/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });

describe('per client ip, at the gateway, in Redis', () => {
  it('two gateway instances share one limit', async () => {
    const prefix = { REDIS_PREFIX: `${RUN_ID}-two`, AUTH_RATE_LIMIT_PER_MINUTE: '3' };
    const [a, b] = [await gateway(prefix), await gateway(prefix)];
    const statuses: number[] = [];
    for (const base of [a, b, a, b]) {
      statuses.push((await signIn(`${base}/api`, `nobody-two-${RUN_ID}@decor.example`, 'wrong')).status);
    }
    expect(statuses).toEqual([403, 403, 403, 429]);
    const refused = await signIn(`${a}/api`, 'customer@decor.example', 'demo1234');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ message: 'Too many requests, please try again in a minute' });
  });

  it('behind a load balancer (TRUST_PROXY), counts each client by X-Forwarded-For', async () => {
    const base = `${await gateway({
      REDIS_PREFIX: `${RUN_ID}-lb`,
      AUTH_RATE_LIMIT_PER_MINUTE: '2',
      TRUST_PROXY: '127.0.0.1',
    })}/api`;
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const email = `nobody-lb-${RUN_ID}@decor.example`;
    expect((await signIn(base, email, 'x', from('203.0.113.1'))).status).toBe(403);
    expect((await signIn(base, email, 'x', from('203.0.113.1'))).status).toBe(403);
    expect((await signIn(base, email, 'x', from('203.0.113.1'))).status).toBe(429);
    // Another client behind the same balancer still has its own budget.
    expect((await signIn(base, email, 'x', from('203.0.113.2'))).status).toBe(403);
  });

  it('without TRUST_PROXY, a client cannot pick a new X-Forwarded-For per attempt', async () => {
    const base = `${await gateway({ REDIS_PREFIX: `${RUN_ID}-edge`, AUTH_RATE_LIMIT_PER_MINUTE: '2' })}/api`;
    const email = `nobody-edge-${RUN_ID}@decor.example`;
    const statuses: number[] = [];
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      statuses.push((await signIn(base, email, 'x', { 'x-forwarded-for': ip })).status);
    expect(statuses).toEqual([403, 403, 429]);
  });
});

describe('per account, where sign-in is decided, in Redis', () => {
  it('stops guessing one account from many ips, through the gateway and on the service port alike', async () => {
    const base = `${await gateway({ TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '1000' })}/api`;
    const victim = 'staff@decor.example';
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      // Half through the gateway from a new ip each time, half on the user service's own port.
      const answer =
        i % 2 === 0
          ? await signIn(base, victim, `guess-${i}`, { 'x-forwarded-for': `192.0.2.${i + 1}` })
          : await signIn(stack.user.url, victim, `guess-${i}`);
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(ACCOUNT_FAILURES).fill(403));

    for (const answer of [
      await signIn(base, victim, 'guess-next', { 'x-forwarded-for': '192.0.2.200' }),
      await signIn(stack.user.url, victim, 'guess-next'),
      // The right password too: the account is closed to sign-in for the window.
      await signIn(stack.user.url, victim, 'demo1234'),
      // Any spelling of the address.
      await signIn(stack.user.url, 'Staff@Decor.Example', 'demo1234'),
    ]) {
      expect(answer.status).toBe(429);
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(((await answer.json()) as { message: string }).message).toMatch(
        /^Too many failed sign-ins for this account, please try again in \d+ minutes$/,
      );
    }
    // Other accounts are untouched, and successful sign-ins do not count.
    for (let i = 0; i < ACCOUNT_FAILURES + 2; i++)
      expect((await signIn(stack.user.url, 'customer@decor.example', 'demo1234')).status).toBe(200);
  });

  it('limits reset e-mails per address on the service port too (the same answer for any address)', async () => {
    const reset = (email: string) =>
      fetch(`${stack.user.url}/send/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    for (const email of ['owner@decor.example', `nobody-reset-${RUN_ID}@decor.example`]) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await reset(email)).status);
      expect([email, statuses]).toEqual([email, [200, 200, 200, 200, 200, 429]]);
    }
  });
});
