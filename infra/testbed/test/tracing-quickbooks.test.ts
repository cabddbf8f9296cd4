/**
 * Staff's "send to QuickBooks" is one trace (issue 32): the gateway, the order service and
 * accounting-sync run as their own processes with tracing on (support/tracing.ts's collector). The
 * QuickBooks emulator answers the job's first call with a 503 (its fault control), so the job runs
 * twice. The request's trace holds the gateway's POST /api/qbo/estimate, accounting-sync's request
 * and its enqueue, both runs of the BullMQ job with their QuickBooks calls (the refused one and the
 * retried ones), the QboRecordSynced event's send and the order service's handling of it — every
 * span hanging from the gateway's request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompanyUpserted } from '@decor/contracts';
import { spawnProcess } from '@decor/gateway/testing';
import { eventually, freePort, serviceEnv } from '@decor/kit/testing';
import { consentRedirect, emulatorControl } from '@decor/qbo-emulator';
import { qboEnv, type RunningProcess, testEndpoints } from '@decor/stack';
import {
  type Collector,
  customerWithCart,
  type EventPublisher,
  eventPublisher,
  ids,
  roots,
  sign,
  spansSeen,
  startCollector,
  submitEstimate,
  type ZipkinSpan,
} from './support/tracing';

let collector: Collector;
const logDir = mkdtempSync(path.join(tmpdir(), 'decor-tracing-qbo-'));
const processes: RunningProcess[] = [];
let events: EventPublisher;
let gateway = '';
let staff = '';
let realmId = '';
const emulator = () => emulatorControl(testEndpoints().qbo.url);

beforeAll(async () => {
  collector = await startCollector();
  const tracing = collector.env;
  const order = await serviceEnv('order', tracing);
  const sync = await serviceEnv('accounting-sync', {
    ...qboEnv(testEndpoints(), {}),
    QBO_RATE_LIMIT_PER_MINUTE: '30000',
    ...tracing,
  });
  const gatewayEnv = await serviceEnv('gateway', tracing);
  const internalPort = String(await freePort());
  const spawn = (name: string, entry: string, env: Record<string, string>, readyUrl: string) =>
    spawnProcess({ name, entry, env, readyUrl, logFile: path.join(logDir, `${name}.log`) });
  processes.push(
    ...(await Promise.all([
      spawn('order', 'services/order/src/main.ts', order, `http://127.0.0.1:${order.PORT}/readyz`),
      spawn(
        'accounting-sync',
        'services/accounting-sync/src/main.ts',
        sync,
        `http://127.0.0.1:${sync.PORT}/readyz`,
      ),
      spawn(
        'gateway',
        'gateway/src/main.ts',
        {
          ...gatewayEnv,
          ORDER_SERVICE_URL: `http://127.0.0.1:${order.PORT}`,
          ACCOUNTING_SYNC_SERVICE_URL: `http://127.0.0.1:${sync.PORT}`,
          GATEWAY_CACHE_TTL_MS: '0',
          INTERNAL_PORT: internalPort,
        },
        // Ready, not only alive: staff's signed-in calls below need the ended sessions read (alive
        // only, a first call met a 503 on a run whose Kafka had just started).
        `http://127.0.0.1:${internalPort}/readyz`,
      ),
    ])),
  );
  gateway = `http://127.0.0.1:${gatewayEnv.PORT}`;
  events = await eventPublisher();
  staff = await sign({ id: ids() + ids(), permissions: 'admin', email: 'staff@decor.example' });

  // Staff connect a fresh QuickBooks company through the gateway (Connect → consent → callback).
  realmId = (await emulator().newCompany(`Traced ${ids()}`)).realmId;
  const start = await fetch(`${gateway}/api/qbo/connect`, { headers: { authorization: `Bearer ${staff}` } });
  expect(start.status).toBe(200);
  const back = await consentRedirect(
    ((await start.json()) as { result: { url: string } }).result.url,
    realmId,
  );
  const connected = await fetch(`${gateway}/api/auth/accessToken${back.search}`, {
    headers: { authorization: `Bearer ${staff}` },
  });
  expect(connected.status).toBe(200);
}, 300_000);

afterAll(async () => {
  await events?.disconnect();
  await Promise.all(processes.map((p) => p.stop()));
  await collector?.close();
}, 60_000);

const serviceOf = (s: ZipkinSpan) => s.localEndpoint?.serviceName;
/** A QuickBooks API call: accounting-sync's HTTP client span to the emulator's /v3/company/. */
const qboCall = (s: ZipkinSpan) =>
  serviceOf(s) === 'accounting-sync' &&
  s.kind === 'CLIENT' &&
  /\/v3\/company\//.test(s.tags?.['url.full'] ?? s.tags?.['http.url'] ?? '');
const statusOf = (s: ZipkinSpan) =>
  Number(s.tags?.['http.response.status_code'] ?? s.tags?.['http.status_code']);

it("staff's send to QuickBooks is one trace: gateway, accounting-sync, its job's two runs and their QuickBooks calls, the order service", async () => {
  // A customer of a company, with a product: the sync writes them to QuickBooks from their events.
  const companyId = ids() + ids();
  await events.publish(CompanyUpserted, companyId, {
    companyId,
    name: 'Traced Events Inc',
    displayName: 'Traced Events Inc',
  });
  const customer = await customerWithCart(events, { companyId });
  const estimateId = await submitEstimate(gateway, customer);
  const records = (entity: string) =>
    emulator().call<Array<Record<string, unknown>>>(`/__emulator/realms/${realmId}/records/${entity}`);
  await eventually(
    async () => {
      const [customers, items] = await Promise.all([records('Customer'), records('Item')]);
      const inQbo = customers.length >= 2 && JSON.stringify(items).includes('Traced Table');
      return inQbo ? true : undefined;
    },
    60_000,
    'the company, the customer and the product in QuickBooks',
  );

  // QuickBooks' next API call answers 503: the estimate job's first run fails and BullMQ retries it.
  await emulator().call(`/__emulator/realms/${realmId}/faults`, {
    method: 'POST',
    json: { status: 503, count: 1 },
  });
  // Until accounting-sync has the estimate's event (it answers 404 before): then 202, the job added.
  await eventually(
    async () => {
      const res = await fetch(`${gateway}/api/qbo/estimate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: estimateId }),
      });
      return res.status === 202 ? true : undefined;
    },
    30_000,
    'the estimate sent to QuickBooks (202)',
  );

  const spans = collector.spans;
  const trace = await eventually(
    async () => {
      const posts = spans.filter(
        (s) =>
          serviceOf(s) === 'gateway' &&
          s.kind === 'SERVER' &&
          /qbo\/estimate/.test(s.tags?.['url.path'] ?? ''),
      );
      for (const post of posts) {
        const inTrace = spans.filter((s) => s.traceId === post.traceId);
        const jobs = inTrace.filter((s) => s.name.startsWith('job qbo-sync.upsert'));
        const calls = inTrace.filter(qboCall);
        const refused = calls.some((s) => statusOf(s) === 503);
        const landed = calls.some((s) => statusOf(s) === 200);
        const handled = inTrace.some((s) => serviceOf(s) === 'order' && s.name === 'handle QboRecordSynced');
        if (jobs.length >= 2 && refused && landed && handled) return inTrace;
      }
      return undefined;
    },
    60_000,
    'one trace from the POST to the retried QuickBooks calls and the order service',
  ).catch((err: Error) => {
    throw new Error(`${err.message}\nspans seen:\n${spansSeen(spans)}`);
  });

  const where = (service: string) => trace.filter((s) => serviceOf(s) === service).map((s) => s.name);
  expect(new Set(trace.map(serviceOf))).toEqual(new Set(['gateway', 'accounting-sync', 'order']));
  expect(where('accounting-sync')).toEqual(
    expect.arrayContaining([expect.stringMatching(/^enqueue qbo-sync\.upsert/), 'send QboRecordSynced']),
  );
  // Both runs of the one job: the first refused by QuickBooks, its retry written.
  const byId = new Map(trace.map((s) => [s.id, s]));
  const callsUnder = (run: ZipkinSpan) => {
    // A run's QuickBooks calls hang from it (through any span between).
    const under = (s: ZipkinSpan): boolean => {
      const parent = s.parentId ? byId.get(s.parentId) : undefined;
      return !!parent && (parent.id === run.id || under(parent));
    };
    return trace.filter((s) => qboCall(s) && under(s)).map(statusOf);
  };
  const runs = trace.filter(
    (s) => s.name.startsWith('job qbo-sync.upsert') && s.tags?.['job.id']?.includes(estimateId),
  );
  const refusedRun = runs.find((r) => callsUnder(r).includes(503));
  expect(refusedRun?.tags?.['job.attempt']).toBe('1');
  const retry = runs.find(
    (r) => r.tags?.['job.id'] === refusedRun?.tags?.['job.id'] && r.tags?.['job.attempt'] === '2',
  );
  expect(retry && callsUnder(retry)).toContain(200);
  // Every span of the trace hangs from another one of it, up to the gateway's request: no broken link.
  expect(roots(trace).map(serviceOf)).toEqual(['gateway']);
}, 240_000);
