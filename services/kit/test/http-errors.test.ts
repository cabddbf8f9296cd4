import { Writable } from 'node:stream';
import { refuse } from '@decor/contracts';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import {
  badRequest,
  conflict,
  createServiceApp,
  forbidden,
  HttpError,
  notFound,
  type ServiceApp,
} from '../src/http';
import { call, listen } from './http-helpers';

// biome-ignore lint/suspicious/noExplicitAny: log lines are read loosely
const lines: Array<Record<string, any>> = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let app: ServiceApp;
let base: string;

beforeAll(async () => {
  app = await createServiceApp({
    name: 'errors-test',
    logger: pino({ level: 'info' }, sink),
    bodyLimit: 1000,
  });
  app.get('/missing', async () => {
    throw notFound('This cart does not exist');
  });
  app.get('/taken', async () => {
    throw conflict('A user with this email already exists');
  });
  app.get('/refused', async () => {
    throw forbidden();
  });
  app.get('/bad', async () => {
    throw badRequest('Quantity is above the stock');
  });
  app.get('/teapot', async () => {
    throw new HttpError(418, 'Short and stout', { 'retry-after': '5' });
  });
  app.get('/domain-refusal', async () => {
    throw refuse.conflict('This cart has been submitted');
  });
  app.get('/domain-missing', async () => {
    throw refuse.notFound('Cart not found');
  });
  app.get('/boom', async () => {
    throw new Error('secret connection string mongodb://admin:pw@db');
  });
  app.get('/ip', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  app.post(
    '/echo',
    { schema: { body: Type.Object({ note: Type.String() }) } },
    async (request) => request.body,
  );
  base = await listen(app);
});
afterAll(() => app.close());

test.each([
  ['/missing', 404, 'This cart does not exist'],
  ['/taken', 409, 'A user with this email already exists'],
  ['/refused', 403, 'You are not allowed to do this'],
  ['/bad', 400, 'Quantity is above the stock'],
  ['/teapot', 418, 'Short and stout'],
])('thrown HttpError %s answers %i { message }', async (path, status, message) => {
  const res = await call(base, path);
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ message });
});

test.each([
  ['/domain-refusal', 409, 'This cart has been submitted'],
  ['/domain-missing', 404, 'Cart not found'],
])("a domain's Refusal %s is mapped at the edge to %i { message }", async (path, status, message) => {
  const res = await call(base, path);
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ message });
});

test('an HttpError can carry headers', async () => {
  expect((await call(base, '/teapot')).headers.get('retry-after')).toBe('5');
});

test('an unknown route is 404 Not found', async () => {
  const res = await call(base, '/nowhere?x=1');
  expect(res).toMatchObject({ status: 404, body: { message: 'Not found' } });
});

test('an unexpected error is 500 An error occurred, logged with its stack and request id, never leaked', async () => {
  const res = await call(base, '/boom', { headers: { 'x-request-id': 'boom-1' } });
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ message: 'An error occurred' });
  const logged = lines.find((l) => l.msg === 'request failed' && l.reqId === 'boom-1');
  expect(logged?.level).toBe(50);
  expect(logged?.err.stack).toContain('secret connection string');
  expect(logged?.service).toBe('errors-test');
});

test('a body over the limit is 413', async () => {
  const res = await call(base, '/echo', { json: { note: 'x'.repeat(2000) } });
  expect(res).toMatchObject({ status: 413, body: { message: 'Body is too large' } });
});

test('the request id is honoured and echoed, or minted when absent', async () => {
  const given = await call(base, '/missing', { headers: { 'x-request-id': 'abc-123' } });
  expect(given.headers.get('x-request-id')).toBe('abc-123');
  expect(lines.some((l) => l.reqId === 'abc-123')).toBe(true);

  const minted = await call(base, '/missing');
  expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

  // A hostile id (log injection) is replaced, not echoed.
  const hostile = await call(base, '/missing', { headers: { 'x-request-id': 'a b\tc' } });
  expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

test('probes are not logged as requests, real requests are', async () => {
  lines.length = 0;
  await call(base, '/healthz');
  await call(base, '/readyz');
  await call(base, '/missing', { headers: { 'x-request-id': 'real-1' } });
  expect(lines.filter((l) => l.req?.url === '/healthz' || l.req?.url === '/readyz')).toEqual([]);
  expect(lines.some((l) => l.reqId === 'real-1' && l.msg === 'incoming request')).toBe(true);
});

test('behind a proxy on loopback (the gateway) the client ip and protocol come from X-Forwarded-*', async () => {
  const res = await call(base, '/ip', {
    headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
  });
  expect(res.body).toEqual({ ip: '203.0.113.7', protocol: 'https' });
});
