/**
 * What the trace tests share (tracing.test.ts, tracing-quickbooks.test.ts): a Zipkin-shaped
 * collector that keeps every span the processes send (what `npm start -- --tracing` points them
 * at), and a customer with a cart whose estimate is submitted through the gateway.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CartChanged, type EventContract, ProductUpserted, UserCreated } from '@decor/contracts';
import {
  createKafka,
  createPublisher,
  createServiceApp,
  newEvent,
  type Publisher,
  publishEnvelopes,
} from '@decor/kit';
import { eventually, RUN_ID, TEST_JWT_SECRET } from '@decor/kit/testing';
import { testEndpoints } from '@decor/stack';
import type { Static } from '@sinclair/typebox';

/** The fields of a Zipkin v2 span the tests read. */
export interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: string;
  timestamp?: number;
  localEndpoint?: { serviceName?: string };
  tags?: Record<string, string>;
}

export interface Collector {
  spans: ZipkinSpan[];
  /** The env that makes a process trace into this collector, sending every 100 ms. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  const spans: ZipkinSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/v2/spans')
        spans.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ZipkinSpan[]));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    spans,
    env: {
      TRACING_ZIPKIN_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/spans`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'info',
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Every service and span name seen, for a failure's message. */
export function spansSeen(spans: ZipkinSpan[]): string {
  return [...new Set(spans.map((s) => `${s.localEndpoint?.serviceName}: ${s.name} (${s.traceId})`))].join(
    '\n',
  );
}

/** Spans whose parent is not in `trace`: a whole trace has exactly one, the gateway's request. */
export function roots(trace: ZipkinSpan[]): ZipkinSpan[] {
  const ids = new Set(trace.map((s) => s.id));
  return trace.filter((s) => !s.parentId || !ids.has(s.parentId));
}

export const ids = () => Math.random().toString(16).slice(2).padEnd(12, '0').slice(0, 12);

/** Publishes events as their owning services' relays would (user, catalogue, cart are not started). */
export async function eventPublisher() {
  const publisher: Publisher = createPublisher(
    createKafka({ clientId: `tracing-test-${ids()}`, brokers: testEndpoints().kafkaBrokers }),
  );
  await publisher.connect();
  return {
    publish: async <C extends EventContract>(
      contract: C,
      aggregateId: string,
      payload: Static<C['payload']>,
    ) => {
      const event = newEvent(contract, { aggregateId, payload, correlationId: `test-${ids()}` });
      await publishEnvelopes(publisher.producer, RUN_ID, [event]);
    },
    disconnect: () => publisher.disconnect(),
  };
}
export type EventPublisher = Awaited<ReturnType<typeof eventPublisher>>;

export async function sign(claims: {
  id: string;
  permissions: 'customer' | 'admin';
  email: string;
}): Promise<string> {
  const signer = await createServiceApp({
    name: 'signer',
    logLevel: 'silent',
    jwt: { secret: TEST_JWT_SECRET, expiresIn: '1h' },
  });
  await signer.ready();
  const token = signer.signToken(claims);
  await signer.close();
  return token;
}

/**
 * A customer with an active cart of one product, as the user, catalogue and cart services announce
 * them; `companyId` as the user service's own (a company's event, when a test needs one).
 */
export async function customerWithCart(
  events: EventPublisher,
  extra: { companyId?: string } = {},
): Promise<{ token: string; cartId: string; userId: string; sku: string }> {
  const userId = ids() + ids();
  const token = await sign({ id: userId, permissions: 'customer', email: `c-${userId}@decor.example` });
  await events.publish(UserCreated, userId, {
    userId,
    email: `c-${userId}@decor.example`,
    displayName: 'Pat Traced',
    permissions: 'customer',
    companyId: extra.companyId ?? ids() + ids(),
    ownCompany: 'Traced Events Inc',
  });
  const sku = `TRC-${ids()}`;
  await events.publish(ProductUpserted, sku, {
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
  await events.publish(CartChanged, userId, {
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
  return { token, cartId, userId, sku };
}

/**
 * POST /api/estimate through the gateway, once the order service has projected customer and cart;
 * the estimate's id.
 */
export async function submitEstimate(
  gateway: string,
  { token, cartId }: { token: string; cartId: string },
): Promise<string> {
  const body = JSON.stringify({
    CartId: cartId,
    status: 'Pending',
    groupName: 'Traced',
    eventDate: '2031-06-14',
    location: 'Hall',
  });
  return eventually(
    async () => {
      const res = await fetch(`${gateway}/api/estimate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      if (res.status !== 201) return undefined;
      return ((await res.json()) as { result: { id: string } }).result.id;
    },
    30_000,
    'the estimate accepted',
  );
}
