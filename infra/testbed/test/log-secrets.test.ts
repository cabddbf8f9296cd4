/**
 * The secrets some URLs carry stay out of every access log (issue 28): the QuickBooks sign-in's
 * `code` and `state` (the `/callback` page and `/api/auth/accessToken`, which the gateway proxies to
 * accounting-sync) and the live order stream's `?ticket=`. The gateway and accounting-sync run as
 * their own processes at debug level, their logs in files, as in production; then every line is read.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnProcess } from '@decor/gateway/testing';
import { createServiceApp } from '@decor/kit';
import { serviceEnv, TEST_JWT_SECRET } from '@decor/kit/testing';
import { freePort, qboEnv, type RunningProcess, testEndpoints } from '@decor/stack';

const logDir = mkdtempSync(path.join(tmpdir(), 'decor-log-secrets-'));
const processes: RunningProcess[] = [];
let gateway = '';
let staff = '';

beforeAll(async () => {
  const debug = { LOG_LEVEL: 'debug' };
  const sync = await serviceEnv('accounting-sync', { ...qboEnv(testEndpoints(), {}), ...debug });
  processes.push(
    await spawnProcess({
      name: 'accounting-sync',
      entry: 'services/accounting-sync/src/main.ts',
      env: sync,
      readyUrl: `http://127.0.0.1:${sync.PORT}/readyz`,
      logFile: path.join(logDir, 'accounting-sync.log'),
    }),
  );
  const port = String(await freePort());
  const internalPort = String(await freePort());
  processes.push(
    await spawnProcess({
      name: 'gateway',
      entry: 'gateway/src/main.ts',
      env: {
        ...(await serviceEnv('gateway', debug)),
        PORT: port,
        ACCOUNTING_SYNC_SERVICE_URL: `http://127.0.0.1:${sync.PORT}`,
        GATEWAY_CACHE_TTL_MS: '0',
        INTERNAL_PORT: internalPort,
      },
      // Ready, not only alive: the signed-in calls below need the ended sessions read.
      readyUrl: `http://127.0.0.1:${internalPort}/readyz`,
      logFile: path.join(logDir, 'gateway.log'),
    }),
  );
  gateway = `http://127.0.0.1:${port}`;
  // A staff session, signed as the user service signs them.
  const signer = await createServiceApp({
    name: 'signer',
    logLevel: 'silent',
    jwt: { secret: TEST_JWT_SECRET, expiresIn: '1h' },
  });
  await signer.ready();
  staff = signer.signToken({
    id: 'a1b2c3d4e5f6a1b2c3d4e5f6',
    permissions: 'admin',
    email: 'admin@decor.example',
  });
  await signer.close();
}, 300_000);

afterAll(async () => {
  for (const child of processes.reverse()) await child.stop();
}, 60_000);

const CODE = 'QBcodeSECRET7f3a9c';
const STATE = 'stateSECRET.e81d44';

it('no code, state or ticket reaches the access logs of the gateway and accounting-sync', async () => {
  const bearer = { authorization: `Bearer ${staff}` };
  // The page QuickBooks sends the browser back to, then the page's exchange (proxied on).
  await (await fetch(`${gateway}/callback?code=${CODE}&state=${STATE}&realmId=9130350`)).arrayBuffer();
  const exchange = await fetch(
    `${gateway}/api/auth/accessToken?code=${CODE}&state=${STATE}&realmId=9130350`,
    {
      headers: bearer,
    },
  );
  // accounting-sync answered (the state is not one it issued): the request reached its log too.
  expect(exchange.status).toBe(400);
  // A live stream opened with its ticket, then closed.
  const issued = await fetch(`${gateway}/api/orders/events/ticket`, { method: 'POST', headers: bearer });
  expect(issued.status).toBe(200);
  const { ticket } = ((await issued.json()) as { result: { ticket: string } }).result;
  const stream = new AbortController();
  const events = await fetch(`${gateway}/api/orders/events?ticket=${encodeURIComponent(ticket)}`, {
    signal: stream.signal,
  });
  expect(events.status).toBe(200);
  stream.abort();

  await new Promise((resolve) => setTimeout(resolve, 500)); // the last lines reach their files
  const gatewayLog = readFileSync(path.join(logDir, 'gateway.log'), 'utf8');
  const syncLog = readFileSync(path.join(logDir, 'accounting-sync.log'), 'utf8');
  // The requests were logged, with their secrets replaced.
  expect(gatewayLog).toContain('/callback?code=[redacted]&state=[redacted]&realmId=9130350');
  expect(gatewayLog).toContain('/api/auth/accessToken?code=[redacted]&state=[redacted]&realmId=9130350');
  expect(gatewayLog).toContain('/api/orders/events?ticket=[redacted]');
  expect(syncLog).toContain('/auth/accessToken?code=[redacted]&state=[redacted]&realmId=9130350');
  const signature = ticket.split('.').at(-1) as string;
  for (const [where, log] of [
    ['gateway', gatewayLog],
    ['accounting-sync', syncLog],
  ]) {
    const leaked = [CODE, STATE, ticket, encodeURIComponent(ticket), signature].filter((s) =>
      log?.includes(s),
    );
    expect({ where, leaked }).toEqual({ where, leaked: [] });
  }
}, 60_000);
