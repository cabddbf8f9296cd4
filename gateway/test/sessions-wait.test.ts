/**
 * A request waits for the ended sessions once, not once per hop: a gateway that held a session token
 * until it had read them tells the service behind it what is left of SESSIONS_WAIT_MS (a just-restarted
 * gateway and service each waiting the whole 2 s put an answer past the 5 s every request is owed).
 * The service here is a stand-in recording the header it got. How long the gateway's reading takes is
 * decided by the test (the real one takes anything from 0.1 to 2 s on a loaded machine): its reader
 * reports "not read yet" until a held request has waited HELD_MS.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SESSIONS_WAIT_LEFT_HEADER, SESSIONS_WAIT_MS, type ServiceApp } from '@decor/kit';
import { serviceEnv } from '@decor/kit/testing';
import { buildGateway } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import { gatewayTestEnv } from './support/env';

/** How long the first request is held before the gateway has read the ended sessions. */
const HELD_MS = 400;

let gateway: ServiceApp | undefined;
let upstream: http.Server;
/** The header as each request reached the service. */
const waitsLeft: (string | undefined)[] = [];

afterAll(async () => {
  await gateway?.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

it('a session token the gateway held reaches the service with what is left of the wait; unheld, the whole wait', async () => {
  upstream = http.createServer((req, res) => {
    waitsLeft.push(req.headers[SESSIONS_WAIT_LEFT_HEADER] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{}}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  gateway = await buildGateway(
    loadGatewayConfig({
      ...gatewayTestEnv(await serviceEnv('user')),
      USER_SERVICE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  let read = false;
  const revocations = gateway.sessionRevocations;
  Object.defineProperty(revocations, 'caughtUp', { get: () => read });
  revocations.whenCaughtUp = async (timeoutMs: number) => {
    await sleep(Math.min(HELD_MS, timeoutMs));
    read = true;
    return true;
  };
  const api = `${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`;
  const token = gateway.signToken(
    { id: 'u-held', permissions: 'customer', email: 'held@decor.example' },
    { sessionVersion: 1 },
  );
  const ask = (headers: Record<string, string> = {}) =>
    fetch(`${api}/auth/jwt`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
      signal: AbortSignal.timeout(10_000),
    });

  // Asked before the gateway has read the ended sessions: held, then passed on with what is left.
  const first = await ask();
  expect(first.status).toBe(200);
  const left = Number(waitsLeft[0]);
  expect(left).toBeGreaterThanOrEqual(0);
  expect(left).toBeLessThanOrEqual(SESSIONS_WAIT_MS - HELD_MS);

  // Read by now: nothing held, the service may wait the whole time; what a client says does not count.
  expect((await ask({ [SESSIONS_WAIT_LEFT_HEADER]: '5' })).status).toBe(200);
  expect(waitsLeft.slice(1)).toEqual([String(SESSIONS_WAIT_MS)]);
}, 60_000);
