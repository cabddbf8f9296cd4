/** The scripts' client of the public API (demo orders, fault suite, bench) against a real HTTP server. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callApi, waiter } from '../src/public-api';

let server: Server;
let base: string;
const seen: { method?: string; url?: string; auth?: string; type?: string; key?: string; body: string }[] =
  [];

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => resolve(body));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await read(req);
    seen.push({
      method: req.method,
      url: req.url,
      auth: req.headers.authorization,
      type: req.headers['content-type'],
      key: req.headers['idempotency-key'] as string | undefined,
      body,
    });
    if (req.url === '/api/html') {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    } else if (req.url === '/api/empty') {
      res.writeHead(204).end();
    } else if (req.url === '/api/slow') {
      setTimeout(() => res.writeHead(200).end('{}'), 2_000);
    } else {
      res
        .writeHead(200, { 'content-type': 'application/json', token: 'abc' })
        .end(JSON.stringify({ result: { echo: body } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('sends JSON with the session token as Bearer (and any more headers) under /api, and reads the JSON answer and headers', async () => {
  const answer = await callApi(base, '/auth/user', {
    method: 'POST',
    json: { email: 'a@b.c' },
    token: 't1',
    headers: { 'idempotency-key': 'k1' },
  });
  expect(seen.at(-1)).toEqual({
    method: 'POST',
    url: '/api/auth/user',
    auth: 'Bearer t1',
    type: 'application/json',
    key: 'k1',
    body: '{"email":"a@b.c"}',
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('token')).toBe('abc');
  expect(answer.body).toEqual({ result: { echo: '{"email":"a@b.c"}' } });
});

test('a GET without token or body sends neither; an answer that is not JSON comes as its text, an empty one as undefined', async () => {
  const html = await callApi(base, '/html');
  expect(seen.at(-1)).toMatchObject({ method: 'GET', auth: undefined, type: undefined, body: '' });
  expect(html).toMatchObject({ status: 502, body: '<h1>Bad gateway</h1>' });
  expect((await callApi(base, '/empty')).body).toBeUndefined();
});

test('a call ends with its signal', async () => {
  await expect(callApi(base, '/slow', { signal: AbortSignal.timeout(100) })).rejects.toThrow(
    /timeout|aborted/i,
  );
});

test('until asks again until the probe answers, a throw counting as not yet', async () => {
  const until = waiter('test', 10);
  let calls = 0;
  const value = await until('the third call', 5_000, async () => {
    calls += 1;
    if (calls === 1) throw new Error('not up yet');
    return calls === 3 ? 'ready' : undefined;
  });
  expect(value).toBe('ready');
  expect(calls).toBe(3);
});

test('until gives up after its time, naming who waited for what, and stops at once when its signal aborts', async () => {
  await expect(waiter('chaos', 10)('the demo company', 50, async () => undefined)).rejects.toThrow(
    'chaos: gave up waiting for the demo company',
  );
  const controller = new AbortController();
  const started = Date.now();
  const waiting = waiter('demo orders', 10, controller.signal)('a cart', 60_000, async () => undefined);
  setTimeout(() => controller.abort(new Error('interrupted')), 50);
  await expect(waiting).rejects.toThrow('interrupted');
  expect(Date.now() - started).toBeLessThan(5_000);
});
