/**
 * One order, one trace (issue 32): the gateway, order service, notification service and its e-mail
 * worker run as their own processes with tracing on, sending spans to a Zipkin-shaped collector in
 * this test (what `npm start -- --tracing` points them at). A customer's estimate submitted through
 * the gateway is one trace: the gateway's request, the order service's request and Mongo writes,
 * the outbox relay's send, the notification consumer's handler and the e-mail job's run. The order
 * service's log lines of that request carry the trace id.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CartChanged, type EventContract, ProductUpserted, UserCreated } from '@decor/contracts';
import {
  createKafka,
  createPublisher,
  createServiceApp,
  newEvent,
  type Publisher,
  publishEnvelopes,
} from '@decor/kit';
import { eventually, RUN_ID, serviceEnv, TEST_JWT_SECRET } from '@decor/kit/testing';
import { freePort, type RunningProcess, testEndpoints } from '@decor/stack';
import type { Static } from '@sinclair/typebox';
import { spawnProcess } from './support/processes';

/** The fields of a Zipkin v2 span this test reads. */
interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: string;
  localEndpoint?: { serviceName?: string };
}

const spans: ZipkinSpan[] = [];
let collector: Server;
const logDir = mkdtempSync(path.join(tmpdir(), 'decor-tracing-'));
const processes: RunningProcess[] = [];
let publisher: Publisher;
let gateway = '';

const ids = () => Math.random().toString(16).slice(2).padEnd(12, '0').slice(0, 12);

async function publish<C extends EventContract>(
  contract: C,
  aggregateId: string,
  payload: Static<C['payload']>,
) {
  const event = newEvent(contract, { aggregateId, payload, correlationId: `test-${ids()}` });
  await publishEnvelopes(publisher.producer, RUN_ID, [event]);
}

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/v2/spans')
        spans.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ZipkinSpan[]));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const tracing = {
    TRACING_ZIPKIN_URL: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/api/v2/spans`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    LOG_LEVEL: 'info',
  };
  const order = await serviceEnv('order', tracing);
  const notification = await serviceEnv('notification', tracing);
  const workerPort = String(await freePort());
  const gatewayPort = String(await freePort());
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
        { ...notification, WORKER_PORT: workerPort },
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
        },
        `http://127.0.0.1:${gatewayPort}/healthz`,
      ),
    ])),
  );
  gateway = `http://127.0.0.1:${gatewayPort}`;
  publisher = createPublisher(
    createKafka({ clientId: 'tracing-test', brokers: testEndpoints().kafkaBrokers }),
  );
  await publisher.connect();
}, 300_000);

afterAll(async () => {
  await publisher?.disconnect();
  await Promise.all(processes.map((p) => p.stop()));
  await new Promise((resolve) => collector?.close(resolve));
}, 60_000);

it('an estimate submitted through the gateway is one trace: gateway, order, notification, the e-mail job', async () => {
  // The customer, the product and the cart as the user, catalogue and cart services announce them.
  const userId = ids() + ids();
  const signer = await createServiceApp({
    name: 'signer',
    logLevel: 'silent',
    jwt: { secret: TEST_JWT_SECRET, expiresIn: '1h' },
  });
  await signer.ready();
  const token = signer.signToken({ id: userId, permissions: 'customer', email: `c-${userId}@decor.example` });
  await signer.close();
  await publish(UserCreated, userId, {
    userId,
    email: `c-${userId}@decor.example`,
    displayName: 'Pat Traced',
    permissions: 'customer',
    companyId: ids() + ids(),
    ownCompany: 'Traced Events Inc',
  });
  const sku = `TRC-${ids()}`;
  await publish(ProductUpserted, sku, {
    sku,
    name: 'Traced Table',
    description: 'Round',
    priceCents: 5000,
    quantity: 100,
    category: 'Tables',
    subcategory: 'Round',
    images: [],
  });
  const cartId = ids() + ids();
  const lines = [
    {
      id: ids() + ids(),
      productId: sku,
      name: 'Traced Table',
      description: 'Round',
      qty: 2,
      priceCents: 5000,
    },
  ];
  await publish(CartChanged, userId, {
    cart: {
      id: cartId,
      userId,
      cartName: 'My cart',
      isActive: true,
      didCheckOut: false,
      createdAt: new Date().toISOString(),
      lines,
      totalCents: 10_000,
    },
    revision: 1,
  });

  // Submitted once the order service has projected the customer, product and cart.
  const body = JSON.stringify({
    CartId: cartId,
    status: 'Pending',
    groupName: 'Traced',
    eventDate: '2031-06-14',
    location: 'Hall',
  });
  const submitted = await eventually(
    async () => {
      const res = await fetch(`${gateway}/api/estimate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      return res.status === 201 ? res : undefined;
    },
    30_000,
    'the estimate accepted',
  );
  expect(submitted.status).toBe(201);

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
    const seen = [...new Set(spans.map((s) => `${s.localEndpoint?.serviceName}: ${s.name} (${s.traceId})`))];
    throw new Error(`${err.message}\nspans seen:\n${seen.join('\n')}`);
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
  const ids_ = new Set(trace.map((s) => s.id));
  const roots = trace.filter((s) => !s.parentId || !ids_.has(s.parentId));
  expect(roots.map((r) => r.localEndpoint?.serviceName)).toEqual(['gateway']);

  // The order service's log lines of the request carry the trace id.
  const orderLog = readFileSync(path.join(logDir, 'order.log'), 'utf8');
  expect(orderLog).toContain(`"trace_id":"${trace[0]?.traceId}"`);
}, 120_000);
