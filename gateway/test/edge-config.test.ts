import type { ServiceApp } from '@decor/kit';
import { TEST_JWT_SECRET } from '@decor/kit/testing';
import { buildGateway } from '../src/app';
import { parseGatewayConfig, trustProxyOf } from '../src/config';

/** Whose X-Forwarded-For the edge believes, and which sites' pages may call the API (issue 28). */
const env = { NODE_ENV: 'test', DECOR_ALLOW_DEV_SECRETS: '1', JWT_SECRET: TEST_JWT_SECRET };

describe('TRUST_PROXY names load balancers, never any client', () => {
  it('refuses true at start, with what to write instead', () => {
    expect(() => parseGatewayConfig({ ...env, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true would believe any client's X-Forwarded-For: name the load balancers' addresses or CIDRs/,
    );
  });

  it.each([
    'yes',
    'loopback',
    '10.0.0.0/33',
    'example.com',
    '10.0.0.0/8/1',
    '10.0.0.1,true',
    '0.0.0.0/0',
    '::/0',
  ])('refuses %j', (value) => {
    expect(() => parseGatewayConfig({ ...env, TRUST_PROXY: value })).toThrow(
      /TRUST_PROXY must be false or addresses\/CIDRs/,
    );
  });

  it('takes false (the default), addresses and CIDRs, v4 and v6', () => {
    expect(trustProxyOf(parseGatewayConfig(env).TRUST_PROXY)).toBe(false);
    const config = parseGatewayConfig({ ...env, TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8,::1' });
    expect(trustProxyOf(config.TRUST_PROXY)).toEqual(['10.0.0.0/8', '192.168.1.5', 'fd00::/8', '::1']);
  });
});

describe('CORS outside production: the product’s own origins, not any', () => {
  let gateway: ServiceApp;
  let url: string;
  beforeAll(async () => {
    gateway = await buildGateway(parseGatewayConfig({ ...env, PORT: '8080', GATEWAY_CACHE_TTL_MS: '0' }), {
      logLevel: 'silent',
    });
    url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => gateway?.close());

  /** The preflight's and a plain request's Access-Control-Allow-Origin for `origin`. */
  const allowed = async (origin: string) => {
    const preflight = await fetch(`${url}/api/categories`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    const plain = await fetch(`${url}/api/nothing-here`, { headers: { origin } });
    return [
      preflight.headers.get('access-control-allow-origin'),
      plain.headers.get('access-control-allow-origin'),
    ];
  };

  it.each([
    'http://127.0.0.1:8080',
    'http://localhost:8080',
    'http://127.0.0.1:3000',
    'http://localhost:3001',
    'http://127.0.0.1:3002',
  ])('allows %s', async (origin) => {
    expect(await allowed(origin)).toEqual([origin, origin]);
  });

  it.each(['https://evil.example', 'http://127.0.0.1:3003', 'http://localhost.evil.example:3000', 'null'])(
    'does not allow %s',
    async (origin) => {
      expect(await allowed(origin)).toEqual([null, null]);
    },
  );

  it('refuses CORS_ORIGINS=* at start, and takes a list', () => {
    expect(() => parseGatewayConfig({ ...env, CORS_ORIGINS: '*' })).toThrow(
      /CORS_ORIGINS must list the allowed origins, not \*/,
    );
    expect(parseGatewayConfig({ ...env, CORS_ORIGINS: 'https://rentals.example' }).CORS_ORIGINS).toBe(
      'https://rentals.example',
    );
  });
});
