/**
 * One order, one trace (issue 32): the gateway, order service, notification service and its e-mail
 * worker run as their own processes with tracing on, sending spans to a Zipkin-shaped collector in
 * this test (what `npm start -- --tracing` points them at). A customer's estimate submitted through
 * the gateway is one trace: the gateway's request, the order service's request and Mongo writes,
 * the outbox relay's send, the notification consumer's handler and the e-mail job's run. The order
 * service's log lines of that request carry the trace id.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FailedEmail } from '@decor/contracts';
import { spawnProcess } from '@decor/gateway/testing';
import { eventually, serviceEnv } from '@decor/kit/testing';
import { smtpRelay } from '@decor/notification/testing';
import { freePort, type RunningProcess } from '@decor/stack';
import {
  type Collector,
  customerWithCart,
  type EventPublisher,
  eventPublisher,
  roots,
  sign,
  spansSeen,
  startCollector,
  submitEstimate as submitThrough,
  type ZipkinSpan,
} from './support/tracing';

let collector: Collector;
let spans: ZipkinSpan[] = [];
const logDir = mkdtempSync(path.join(tmpdir(), 'decor-tracing-'));
const processes: RunningProcess[] = [];
let events: EventPublisher;
let gateway = '';
let relay: Awaited<ReturnType<typeof smtpRelay>>;

beforeAll(async () => {
  collector = await startCollector();
  spans = collector.spans;
  const tracing = collector.env;
  relay = await smtpRelay(); // SMTP, until the second test refuses every recipient
  await relay.up();
  const order = await serviceEnv('order', tracing);
  const notification = await serviceEnv('notification', tracing);
  const workerPort = String(await freePort());
  const gatewayPort = String(await freePort());
  const internalPort = String(await freePort());
  const spawn = (name: string, entry: string, env: Record<string, string>, readyUrl: string) =>
    spawnProcess({ name, entry, env, readyUrl, logFile: path.join(logDir, `${name}.log`) });
  processes.push(
    ...(await Promise.all([
      spawn('order', 'services/order/src/main.ts', order, `http://127.0.0.1:${order.PORT}/readyz`),
      spawn(
        'notification',
        'services/notification/src/main.ts',
        notification,
        `http://127.0.0.1:${notification.PORT}/readyz`,
      ),
      spawn(
        'notification-worker',
        'services/notification/src/worker.ts',
        { ...notification, WORKER_PORT: workerPort, SMTP_URL: relay.url },
        `http://127.0.0.1:${workerPort}/readyz`,
      ),
      spawn(
        'gateway',
        'gateway/src/main.ts',
        {
          ...(await serviceEnv('gateway', tracing)),
          PORT: gatewayPort,
          ORDER_SERVICE_URL: `http://127.0.0.1:${order.PORT}`,
          NOTIFICATION_SERVICE_URL: `http://127.0.0.1:${notification.PORT}`,
          GATEWAY_CACHE_TTL_MS: '0',
          INTERNAL_PORT: internalPort,
        },
        // Ready, not only alive: the staff call below needs the ended sessions read.
        `http://127.0.0.1:${internalPort}/readyz`,
      ),
    ])),
  );
  gateway = `http://127.0.0.1:${gatewayPort}`;
  events = await eventPublisher();
}, 300_000);

afterAll(async () => {
  await events?.disconnect();
  await Promise.all(processes.map((p) => p.stop()));
  await collector?.close();
  await relay?.down();
}, 60_000);

const submitEstimate = async (customer: { token: string; cartId: string }) => {
  await submitThrough(gateway, customer);
};

it('an estimate submitted through the gateway is one trace: gateway, order, notification, the e-mail job', async () => {
  await submitEstimate(await customerWithCart(events));
  // The trace of the one POST that answered 201 at the gateway (earlier tries were refused).
  const trace = await eventually(
    async () => {
      const posts = spans.filter((s) => s.localEndpoint?.serviceName === 'gateway' && s.kind === 'SERVER');
      for (const post of posts) {
        const inTrace = spans.filter((s) => s.traceId === post.traceId);
        const names = new Set(inTrace.map((s) => s.localEndpoint?.serviceName));
        const jobs = inTrace.filter(
          (s) => s.localEndpoint?.serviceName === 'notification-worker' && s.name.startsWith('job email'),
        );
        if (names.has('order') && names.has('notification') && jobs.length >= 2) return inTrace;
      }
      return undefined;
    },
    30_000,
    'one trace from the gateway to the e-mail jobs',
  ).catch((err: Error) => {
    throw new Error(`${err.message}\nspans seen:\n${spansSeen(spans)}`);
  });
  const where = (service: string) =>
    trace.filter((s) => s.localEndpoint?.serviceName === service).map((s) => s.name);
  expect(where('order')).toEqual(expect.arrayContaining([expect.stringMatching(/^send EstimateSubmitted/)]));
  expect(where('order').some((n) => /insert|update|findAndModify|find/i.test(n))).toBe(true); // its Mongo writes
  expect(where('notification')).toEqual(
    expect.arrayContaining([expect.stringMatching(/^handle EstimateSubmitted/)]),
  );
  expect(where('notification-worker').filter((n) => n.startsWith('job email'))).toHaveLength(2); // customer, staff
  // Every span of the trace hangs from another one of it, up to the gateway's request: no broken link.
  expect(roots(trace).map((r) => r.localEndpoint?.serviceName)).toEqual(['gateway']);

  // The order service's log lines of the request carry the trace id.
  const orderLog = readFileSync(path.join(logDir, 'order.log'), 'utf8');
  expect(orderLog).toContain(`"trace_id":"${trace[0]?.traceId}"`);
}, 120_000);

it('a failed e-mail shows staff its trace id: the trace of the request that caused it', async () => {
  await relay.refuse(); // every recipient: 550, a refusal for good
  await submitEstimate(await customerWithCart(events));
  const staff = await sign({ id: 'admin0123456789abcdef01', permissions: 'admin', email: 'x@y.z' });
  const failed = await eventually(
    async () => {
      const res = await fetch(`${gateway}/api/send/failed`, {
        headers: { authorization: `Bearer ${staff}` },
      });
      const list = ((await res.json()) as { result: FailedEmail[] }).result;
      return list.length >= 2 ? list : undefined;
    },
    30_000,
    'the refused e-mails in the failed list',
  );
  // The customer's and the staff's e-mail of one estimate: one trace, the estimate's.
  expect(failed).toHaveLength(2);
  const traceId = failed[0]?.traceId as string;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(failed[1]?.traceId).toBe(traceId);
  const trace = await eventually(
    async () => {
      const inTrace = spans.filter((s) => s.traceId === traceId);
      const post = inTrace.some((s) => s.localEndpoint?.serviceName === 'gateway' && s.kind === 'SERVER');
      const jobs = inTrace.filter((s) => s.name.startsWith('job email'));
      return post && jobs.length >= 2 ? inTrace : undefined;
    },
    15_000,
    `trace ${traceId} from the gateway's POST to the failed jobs`,
  );
  expect(trace.filter((s) => s.localEndpoint?.serviceName === 'order').length).toBeGreaterThan(0);
}, 120_000);

it('secrets in URLs (a reset link, a stream ticket, the QuickBooks return) never reach a span', async () => {
  const secrets = ['resettoken0123456789abcdef', 'ticket0123456789abcdef', 'code0123456789abcdef'];
  await fetch(`${gateway}/reset/${secrets[0]}`).then((r) => r.body?.cancel());
  await fetch(`${gateway}/api/orders/events?ticket=${secrets[1]}&lastEventId=1`).then((r) =>
    r.body?.cancel(),
  );
  await fetch(`${gateway}/callback?code=${secrets[2]}&state=x&realmId=1`).then((r) => r.body?.cancel());
  // All three requests' server spans have arrived (their paths, redacted).
  await eventually(
    async () => {
      const paths = spans.map((s) => `${s.tags?.['url.path'] ?? ''}?${s.tags?.['url.query'] ?? ''}`);
      const arrived = ['/reset/[redacted]', 'ticket=[redacted]', 'code=[redacted]'].every((part) =>
        paths.some((p) => p.includes(part)),
      );
      return arrived ? true : undefined;
    },
    15_000,
    'the three requests traced',
  );
  const text = JSON.stringify(spans);
  for (const secret of secrets) expect([secret, text.includes(secret)]).toEqual([secret, false]);
}, 60_000);
