/** How the fault suite's load client records a server that goes away (real sockets, no product). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@decor/contracts/test-ports';
import { Load } from '../src/chaos/load';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const loadAt = (gatewayUrl: string) =>
  new Load({
    gatewayUrl,
    customers: [],
    staff: { email: 's@x', password: 'p' },
    productId: 'p',
    ordersPerMinute: 1,
    log: () => {},
  });

test('a connection dropped under the request (a stopping server) is a refusal, as a refused connection is', async () => {
  const dropping = loadAt(await serve((req) => req.socket.destroy()));
  expect(await dropping.call('GET', '/auth/jwt')).toBeUndefined();
  const closed = loadAt(`http://127.0.0.1:${await freePort()}`); // nothing listens there
  expect(await closed.call('GET', '/auth/jwt')).toBeUndefined();
  expect([...dropping.answers, ...closed.answers].map((a) => [a.what, a.failure])).toEqual([
    ['GET /auth/jwt', 'refused'],
    ['GET /auth/jwt', 'refused'],
  ]);
});

test('an answer is recorded with its status, never as a failure', async () => {
  const load = loadAt(await serve((_req, res) => res.writeHead(503).end('{"message":"later"}')));
  expect((await load.call('POST', '/estimate', { json: {} }))?.status).toBe(503);
  expect(load.answers).toMatchObject([{ what: 'POST /estimate', status: 503 }]);
  expect(load.answers[0]?.failure).toBeUndefined();
});
