/**
 * A service of several instances (issue 32's rolling restart): the gateway takes them in turn, and a
 * request an instance could not take goes to the next one — any request when the connection was
 * refused (nothing was sent), only a read or a write with an Idempotency-Key when the connection was
 * cut off before an answer (the first instance may have done it). Here the instances are stand-ins:
 * one that answers (echoing what it got), one whose port is closed, one that drops every connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceApp } from '@decor/kit';
import { eventually, freePort, serviceEnv } from '@decor/kit/testing';
import { buildGateway } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import { mayRetryElsewhere, poolOf } from '../src/upstream-pool';
import { gatewayTestEnv } from './support/env';

interface Seen {
  method: string;
  url: string;
  body: string;
}

const servers: http.Server[] = [];
const seen: Seen[] = [];
/** The live instance's connections: whether the gateway (the client) ended each. */
const liveConnections: { endedByGateway: boolean }[] = [];
/** The gateway's idle connections close after this here (UPSTREAM_IDLE_MS). */
const IDLE_MS = 300;
let gateway: ServiceApp;
let api: string;

async function serve(handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler);
  servers.push(server);
  // As a service (Fastify's default): an idle connection is kept 72 s on this side.
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  const liveServer = await serve((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: { body } }));
    });
  });
  liveServer.on('connection', (socket) => {
    const seenConnection = { endedByGateway: false };
    liveConnections.push(seenConnection);
    socket.on('end', () => {
      seenConnection.endedByGateway = true;
    });
  });
  const live = urlOf(liveServer);
  // Reads the request, then drops the connection without a word: a process gone mid-request.
  const cutter = urlOf(
    await serve((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    }),
  );
  const closed = `http://127.0.0.1:${await freePort()}`;
  const env = await serviceEnv('user');
  gateway = await buildGateway(
    loadGatewayConfig({
      ...gatewayTestEnv(env),
      // Refused first, then the live one; cut off first, then the live one.
      USER_SERVICE_URL: `${closed},${live}`,
      NOTIFICATION_SERVICE_URL: `${cutter}, ${live}/`,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      GATEWAY_CACHE_TTL_MS: '0',
      UPSTREAM_IDLE_MS: String(IDLE_MS),
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  api = `${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(json),
  });

it('sends a request refused by one instance to the next, whatever its method, body and all', async () => {
  for (let i = 0; i < 4; i++) {
    const res = await post('/auth/user', { email: `refused-${i}@decor.example`, password: 'x' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { body: string } }).result.body).toBe(
      JSON.stringify({ email: `refused-${i}@decor.example`, password: 'x' }),
    );
  }
  const read = await fetch(`${api}/user/someone`);
  expect(read.status).toBe(200);
  // Each reached the live instance exactly once.
  expect(seen.filter((s) => s.body.includes('refused-')).map((s) => JSON.parse(s.body).email)).toEqual([
    'refused-0@decor.example',
    'refused-1@decor.example',
    'refused-2@decor.example',
    'refused-3@decor.example',
  ]);
});

it('after a connection cut off mid-request: reads and keyed writes go to the next instance, other writes are refused cleanly', async () => {
  const statuses = { read: [] as number[], keyed: [] as number[], plain: [] as number[] };
  for (let i = 0; i < 4; i++) {
    statuses.read.push((await fetch(`${api}/send/info/read-${i}`)).status);
    statuses.keyed.push(
      (await post('/send/info', { n: `keyed-${i}` }, { 'idempotency-key': `k-${i}` })).status,
    );
    statuses.plain.push((await post('/send/info', { n: `plain-${i}` })).status);
  }
  expect(statuses.read).toEqual([200, 200, 200, 200]);
  expect(statuses.keyed).toEqual([200, 200, 200, 200]);
  // Taken in turn, half the plain writes met the instance that cut them off: 503, never sent again.
  expect(statuses.plain.sort()).toEqual([200, 200, 503, 503]);
  const bodies = seen.map((s) => s.body);
  for (let i = 0; i < 4; i++) expect(bodies.filter((b) => b.includes(`keyed-${i}`))).toHaveLength(1);
  expect(bodies.filter((b) => b.includes('plain-'))).toHaveLength(2);
});

it('closes a connection to a service once it has been idle UPSTREAM_IDLE_MS, before the service would', async () => {
  // A service closing an idle connection as a request is written to it fails that request (a read
  // with one instance to go to answers 503): the gateway ends idle ones itself, first.
  const from = liveConnections.length;
  expect((await fetch(`${api}/user/idle-check`)).status).toBe(200);
  expect(liveConnections.length).toBeGreaterThan(0);
  await eventually(
    async () => liveConnections.every((c) => c.endedByGateway) || undefined,
    5_000,
    'the gateway ending its idle connections',
  );
  // …and a read after the pause is answered on a new connection.
  expect((await fetch(`${api}/user/after-idle`)).status).toBe(200);
  expect(liveConnections.length).toBeGreaterThan(from);
});

it('retries only what is safe', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const reset = { message: 'socket hang up', cause: { code: 'ECONNRESET' } };
  const timeout = Object.assign(new Error('timeout'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
  expect(mayRetryElsewhere('POST', {}, refused)).toBe(true);
  expect(mayRetryElsewhere('GET', {}, reset)).toBe(true);
  expect(mayRetryElsewhere('POST', { 'idempotency-key': 'k' }, reset)).toBe(true);
  expect(mayRetryElsewhere('POST', {}, reset)).toBe(false);
  expect(mayRetryElsewhere('DELETE', {}, reset)).toBe(false);
  expect(mayRetryElsewhere('GET', {}, timeout)).toBe(false);
  const pool = poolOf('http://a:1/, http://b:2');
  expect([pool.next(), pool.next(), pool.next()]).toEqual(['http://a:1', 'http://b:2', 'http://a:1']);
  expect(pool.after('http://b:2')).toBe('http://a:1');
});
