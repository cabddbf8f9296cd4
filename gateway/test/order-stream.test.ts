/**
 * Live order status (issue 9, src/order-stream.ts) on real servers: two gateway instances reading
 * this file's `<run>.order` topic on the test Kafka, the order events published onto it as the order
 * service's relay publishes them, and SSE clients over real HTTP.
 */
import { randomBytes } from 'node:crypto';
import {
  EstimateStatusChanged,
  EstimateSubmitted,
  type EventContract,
  InvoiceCreated,
  OrderChange,
  SessionsRevoked,
} from '@decor/contracts';
import {
  createKafka,
  createPublisher,
  ensureTopics,
  newEvent,
  publishEnvelopes,
  type ServiceApp,
  topicFor,
} from '@decor/kit';
import { call, RUN_ID, testEndpoints } from '@decor/kit/testing';
import type { Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { buildGateway } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import type { OrderStreams } from '../src/order-stream';
import { StreamTickets } from '../src/stream-ticket';
import { JWT_SECRET } from './support/env';
import { openSse, orderEvents, type SseStream } from './support/sse-client';

jest.setTimeout(60_000);

const newId = () => randomBytes(12).toString('hex');
const kafka = createKafka({ clientId: `${RUN_ID}-order-stream-test`, brokers: testEndpoints().kafkaBrokers });
const publisher = createPublisher(kafka);

interface Gateway {
  app: ServiceApp;
  base: string;
  streams: OrderStreams;
}

let gw: Gateway;
let other: Gateway;
const open: SseStream[] = [];

async function startGateway(extra: Record<string, string> = {}): Promise<Gateway> {
  const app = await buildGateway(
    loadGatewayConfig({
      NODE_ENV: 'test',
      DECOR_ALLOW_DEV_SECRETS: '1',
      JWT_SECRET,
      KAFKA_BROKERS: testEndpoints().kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: RUN_ID,
      GATEWAY_CACHE_TTL_MS: '0',
      // The origin a test's stream comes from (the default allows only the product's own).
      CORS_ORIGINS: 'http://shop.example',
      ...extra,
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  // Ready once it has read which sessions ended (a token answers 503 until then); never, without Kafka.
  if (!extra.KAFKA_BROKERS) await app.sessionRevocations.whenCaughtUp(10_000);
  return { app, base, streams: app.orderStreams as OrderStreams };
}

const token = (
  g: Gateway,
  permissions: 'customer' | 'admin' | 'superadmin',
  id = newId(),
  expiresIn?: string,
) =>
  g.app.signToken(
    { id, permissions, email: `${permissions}-${id}@decor.example` },
    expiresIn === undefined ? undefined : { expiresIn },
  );

async function stream(
  g: Gateway,
  opts: { token?: string; lastEventId?: string; query?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const s = await openSse(`${g.base}/api/orders/events${opts.query ?? ''}`, opts);
  open.push(s);
  if (s.status === 200) await s.until((m) => m.some((e) => e.event === 'ready'), 20_000, 'ready');
  return s;
}

function orderState(
  userId: string,
  orderType: 'estimate' | 'invoice',
  id: string,
  status: string,
  revision: number,
) {
  return {
    orderType,
    id,
    docNumber: '1001',
    userId,
    cartId: newId(),
    status: status as 'Pending',
    hasBeenModified: false,
    isInQbo: false,
    qboId: null,
    customer: { email: `secret-${userId}@decor.example`, displayName: 'Secret Name' },
    details: { groupName: 'Private party' },
    lines: [
      { productId: 'p1', name: 'Secret line', description: 'x', qty: 1, priceCents: 100, totalCents: 100 },
    ],
    subtotalCents: 100,
    truckingCents: 0,
    taxCents: 8,
    totalCents: 108,
    revision,
  };
}

const actor = { role: 'staff' as const, userId: null };

async function publish<C extends EventContract>(
  contract: C,
  aggregateId: string,
  payload: Static<C['payload']>,
) {
  const event = newEvent(contract, { aggregateId, payload, correlationId: `test-${newId()}` });
  await publishEnvelopes(publisher.producer, RUN_ID, [event]);
  return event;
}

const submitted = (userId: string, estimateId = newId()) =>
  publish(EstimateSubmitted, estimateId, {
    estimateId,
    docNumber: '1001',
    status: 'Pending',
    userId,
    cartId: newId(),
    customer: { email: 'x@decor.example', displayName: 'X' },
    details: {},
    lines: [],
    subtotalCents: 0,
    truckingCents: 0,
    taxCents: 0,
    totalCents: 0,
    submittedAt: new Date().toISOString(),
  });

const estimateOpened = (userId: string, id = newId(), revision = 1) =>
  publish(EstimateStatusChanged, id, {
    order: orderState(userId, 'estimate', id, 'Open', revision),
    from: 'Pending',
    actor,
  });

const invoiceCreated = (userId: string, id = newId()) =>
  publish(InvoiceCreated, id, { order: orderState(userId, 'invoice', id, 'Pending', 0), actor });

/** Waits until the gateway's feed has read `n` more events than `before`. */
const fed = async (g: Gateway, before: number, n: number) => {
  const deadline = Date.now() + 10_000;
  while (g.streams.feed.received < before + n) {
    if (Date.now() > deadline)
      throw new Error(`the gateway read ${g.streams.feed.received - before} of ${n} events`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  await ensureTopics(kafka, [topicFor(RUN_ID, 'order')]);
  await publisher.connect();
  [gw, other] = await Promise.all([
    startGateway(),
    startGateway({ ORDER_STREAM_MAX_STREAMS: '3', ORDER_STREAM_HEARTBEAT_MS: '1000' }),
  ]);
});

afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

afterAll(async () => {
  for (const g of [gw, other]) await g?.app.close();
  await publisher.disconnect();
});

describe('GET /api/orders/events', () => {
  it('refuses without credentials, with a bad session, and with a forged or session-token ticket (401)', async () => {
    expect((await openSse(`${gw.base}/api/orders/events`)).status).toBe(401);
    const bad = await openSse(`${gw.base}/api/orders/events`, { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ message: 'Invalid session token' });
    const session = token(gw, 'customer');
    expect((await openSse(`${gw.base}/api/orders/events?ticket=${session}`)).status).toBe(401);
    expect((await openSse(`${gw.base}/api/orders/events?ticket=abc.def`)).status).toBe(401);
    expect((await call(`${gw.base}/api`, '/orders/events/ticket', { method: 'POST' })).status).toBe(401);
    // Nothing consumed Kafka for these.
    expect(gw.streams.open).toBe(0);
  });

  it("streams a customer their own orders' changes, never another customer's; staff get all", async () => {
    const alice = newId();
    const bob = newId();
    const [a, b, staff, owner] = await Promise.all([
      stream(gw, { token: token(gw, 'customer', alice), headers: { origin: 'http://shop.example' } }),
      stream(gw, { token: token(gw, 'customer', bob) }),
      stream(gw, { token: token(gw, 'admin') }),
      stream(gw, { token: token(gw, 'superadmin') }),
    ]);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(a.headers.get('cache-control')).toBe('no-cache, no-transform');
    // CORS and helmet headers survive the raw answer.
    expect(a.headers.get('access-control-allow-origin')).toBe('http://shop.example');
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');

    const estimateId = newId();
    const sent = Date.now();
    await submitted(alice, estimateId);
    await estimateOpened(bob);
    const invoiceId = newId();
    await invoiceCreated(alice, invoiceId);

    await staff.until((m) => orderEvents(m).length === 3, 5_000, 'staff to get all three');
    await owner.until((m) => orderEvents(m).length === 3, 5_000, 'the superadmin to get all three');
    await a.until((m) => orderEvents(m).length === 2, 5_000, "alice's two");
    await b.until((m) => orderEvents(m).length === 1, 5_000, "bob's one");
    // Different orders are on different partitions: in order per order only.
    const byType = (x: Record<string, unknown>, y: Record<string, unknown>) =>
      String(x.type).localeCompare(String(y.type));
    expect(orderEvents(a.messages).sort(byType)).toEqual([
      { type: 'EstimateSubmitted', orderType: 'estimate', id: estimateId, status: 'Pending', revision: 0 },
      { type: 'InvoiceCreated', orderType: 'invoice', id: invoiceId, status: 'Pending', revision: 0 },
    ]);
    expect(orderEvents(b.messages)).toEqual([
      expect.objectContaining({
        type: 'EstimateStatusChanged',
        orderType: 'estimate',
        status: 'Open',
        revision: 1,
      }),
    ]);
    // Only the identity, status and revision: no lines, no customer, no details (contracts' OrderChange).
    for (const data of orderEvents(staff.messages)) {
      expect(Object.keys(data).sort()).toEqual(['id', 'orderType', 'revision', 'status', 'type']);
      expect(Value.Check(OrderChange, data)).toBe(true);
    }
    expect(JSON.stringify(staff.messages)).not.toMatch(/secret/i);
    // Live within 2 s of publishing.
    const last = staff.messages.filter((m) => m.event === 'order').at(-1);
    expect((last?.at ?? Number.POSITIVE_INFINITY) - sent).toBeLessThan(2_000);
    // Ids are positions in this instance's feed, growing.
    const ids = staff.messages.filter((m) => m.event === 'order').map((m) => m.id as string);
    expect(ids.every((id) => id.startsWith(`${gw.streams.feed.epoch}-`))).toBe(true);
    // Another customer's events never reached alice (staff had all three, so she had her chance).
    expect(orderEvents(a.messages).map((e) => e.id)).not.toContain(orderEvents(b.messages)[0]?.id);
  });

  it('resumes from Last-Event-ID with exactly the missed events, else asks the client to resync', async () => {
    const carol = newId();
    const carolToken = token(gw, 'customer', carol);
    const first = await stream(gw, { token: carolToken });
    await submitted(carol);
    await first.until((m) => orderEvents(m).length === 1);
    const lastId = first.messages.filter((m) => m.event === 'order')[0]?.id as string;
    first.close();

    // While carol is away: two changes of hers, one of someone else's.
    const before = gw.streams.feed.received;
    const missedEstimate = newId();
    await estimateOpened(carol, missedEstimate, 1);
    await estimateOpened(newId());
    const missedInvoice = newId();
    await invoiceCreated(carol, missedInvoice);
    await fed(gw, before, 3);

    const resumed = await stream(gw, { token: carolToken, lastEventId: lastId });
    expect(resumed.messages.map((m) => m.event)).toEqual(['order', 'order', 'ready']);
    expect(
      orderEvents(resumed.messages)
        .map((e) => e.id)
        .sort(),
    ).toEqual([missedEstimate, missedInvoice].sort());
    // The ready event carries the current position, so the next resume starts there.
    const position = resumed.messages.at(-1)?.id as string;
    expect(position).toBe(gw.streams.feed.position);

    // A new EventSource cannot set the header: ?lastEventId= does the same.
    const viaQuery = await stream(gw, {
      token: carolToken,
      query: `?lastEventId=${encodeURIComponent(lastId)}`,
    });
    expect(orderEvents(viaQuery.messages).map((e) => e.id)).toEqual(
      orderEvents(resumed.messages).map((e) => e.id),
    );
    // Up to date: nothing to replay.
    const current = await stream(gw, { token: carolToken, lastEventId: position });
    expect(current.messages.map((m) => m.event)).toEqual(['ready']);

    // A position this instance cannot place (another instance's, a restart's, garbage): resync.
    for (const unknown of [`0000000000-1`, 'garbage']) {
      const s = await stream(gw, { token: carolToken, lastEventId: unknown });
      expect(s.messages.map((m) => m.event)).toEqual(['resync', 'ready']);
    }
  });

  it('streams from each of two gateway instances; a position from one is a resync on the other', async () => {
    const dan = newId();
    const danToken = token(gw, 'customer', dan);
    const [one, two] = await Promise.all([
      stream(gw, { token: danToken }),
      stream(other, { token: danToken }),
    ]);
    const id = newId();
    await estimateOpened(dan, id, 2);
    for (const s of [one, two]) {
      await s.until((m) => orderEvents(m).length === 1);
      expect(orderEvents(s.messages)[0]).toMatchObject({ id, status: 'Open', revision: 2 });
    }
    expect(gw.streams.feed.epoch).not.toBe(other.streams.feed.epoch);
    const fromOne = one.messages.filter((m) => m.event === 'order')[0]?.id as string;
    two.close();
    const moved = await stream(other, { token: danToken, lastEventId: fromOne });
    expect(moved.messages.map((m) => m.event)).toEqual(['resync', 'ready']);
  });

  it('opens with a one-use ticket, which also expires', async () => {
    const erin = newId();
    const session = token(gw, 'customer', erin);
    const issued = await call(`${gw.base}/api`, '/orders/events/ticket', { method: 'POST', token: session });
    expect(issued.status).toBe(200);
    const { ticket, expiresAt } = issued.body.result;
    expect(typeof ticket).toBe('string');
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(55_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);

    const s = await stream(gw, { query: `?ticket=${encodeURIComponent(ticket)}` });
    expect(s.status).toBe(200);
    const id = newId();
    await submitted(erin, id);
    await estimateOpened(newId());
    await s.until((m) => orderEvents(m).length === 1);
    expect(orderEvents(s.messages)[0]).toMatchObject({ id });

    // Used: refused on this instance, even while the first stream is open.
    const again = await stream(gw, { query: `?ticket=${encodeURIComponent(ticket)}` });
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/already used/);
    // Not a session token anywhere.
    expect((await call(`${gw.base}/api`, '/estimate', { token: ticket })).status).toBe(401);

    // Expired: a ticket signed with the gateway's key 61 s ago.
    const old = new StreamTickets(JWT_SECRET, () => Date.now() - 61_000).issue({
      id: erin,
      permissions: 'customer',
    });
    const expired = await stream(gw, { query: `?ticket=${encodeURIComponent(old.ticket)}` });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
    // Signed with another secret: refused.
    const forged = new StreamTickets('another secret').issue({ id: erin, permissions: 'admin' });
    expect((await stream(gw, { query: `?ticket=${encodeURIComponent(forged.ticket)}` })).status).toBe(401);

    // A staff ticket streams all orders.
    const staffTicket = (
      await call(`${gw.base}/api`, '/orders/events/ticket', { method: 'POST', token: token(gw, 'admin') })
    ).body.result.ticket as string;
    const staff = await stream(other, { query: `?ticket=${encodeURIComponent(staffTicket)}` });
    await estimateOpened(newId());
    await staff.until((m) => orderEvents(m).length === 1);
  });

  it('caps streams per user and per instance (429), and frees a slot when the client goes', async () => {
    const frank = token(gw, 'customer');
    const five = [];
    for (let i = 0; i < 5; i++) five.push(await stream(gw, { token: frank }));
    expect(five.every((s) => s.status === 200)).toBe(true);
    const sixth = await stream(gw, { token: frank });
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(/5 live update streams per user/);
    five[0]?.close();
    await waitFor(() => gw.streams.open === 4);
    expect((await stream(gw, { token: frank })).status).toBe(200);

    // The other instance allows 3 streams in all.
    const three = await Promise.all([0, 1, 2].map(() => stream(other, { token: token(other, 'customer') })));
    expect(three.map((s) => s.status)).toEqual([200, 200, 200]);
    const full = await stream(other, { token: token(other, 'customer') });
    expect(full.status).toBe(429);
    for (const s of open) s.close();
    await waitFor(() => gw.streams.open === 0 && other.streams.open === 0);
    const metrics = await (await fetch(`${gw.app.internalUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_order_streams\{service="gateway"\} 0/);
  });

  it('holds a stream 20 s with heartbeats and still delivers', async () => {
    const grace = newId();
    const s = await stream(gw, { token: token(gw, 'customer', grace) });
    const fast = await stream(other, { token: token(other, 'customer', grace) });
    await new Promise((r) => setTimeout(r, 20_000));
    expect(s.ended).toBe(false);
    expect(s.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(1);
    expect(fast.comments.length).toBeGreaterThanOrEqual(15);
    const id = newId();
    await estimateOpened(grace, id);
    await s.until((m) => orderEvents(m).length === 1);
    await fast.until((m) => orderEvents(m).length === 1);
  }, 40_000);

  it("ends a user's stream when that session ends, not when an older session of the user does", async () => {
    const hana = newId();
    const session = gw.app.signToken(
      { id: hana, permissions: 'customer', email: `hana-${hana}@decor.example` },
      { sessionVersion: 2_000 },
    );
    const s = await stream(gw, { token: session });
    expect(s.status).toBe(200);
    const ended = (sessionVersion: number) =>
      gw.app.sessionRevocations.apply({
        type: SessionsRevoked.type,
        occurredAt: new Date().toISOString(),
        payload: { userId: hana, sessionVersion, reason: 'signed-out', at: new Date().toISOString() },
      });
    // Heard late: the sign-out that ended the session before this one (a new sign-in's version is above it).
    ended(1_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.ended).toBe(false);
    ended(3_000);
    await waitFor(() => s.ended, 5_000);
  });

  it('ends a stream when its session ends', async () => {
    const s = await stream(other, { token: token(other, 'customer', newId(), '2s') });
    expect(s.status).toBe(200);
    await waitFor(() => s.ended, 6_000);
    await waitFor(() => other.streams.open === 0);
  });
});

describe('API documentation', () => {
  it('lists the two endpoints in /api/docs', async () => {
    const doc = (await (await fetch(`${gw.base}/api/docs/json`)).json()) as {
      paths: Record<string, Record<string, { tags: string[] }>>;
    };
    expect(doc.paths['/api/orders/events']?.get?.tags).toEqual(['gateway']);
    expect(doc.paths['/api/orders/events/ticket']?.post).toBeDefined();
  });
});

describe('without Kafka', () => {
  it('answers 503 (try again) rather than a stream that would say nothing', async () => {
    const offline = await startGateway({ KAFKA_BROKERS: '127.0.0.1:9' });
    try {
      const s = await openSse(`${offline.base}/api/orders/events`, { token: token(offline, 'customer') });
      expect(s.status).toBe(503);
      expect(s.headers.get('retry-after')).toBe('5');
      expect(offline.streams.open).toBe(0);
    } finally {
      await offline.app.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
