/**
 * The gateway's cache of catalogue reads (src/catalogue-cache.ts), on real servers: a catalogue
 * service on this file's database and topics, gateways in front (two caching, one with the cache
 * off as the reference of what proxying answers), Kafka carrying the catalogue's events.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogueContext } from '@decor/catalogue';
import { catalogueService, loadCatalogueConfig, saveProduct } from '@decor/catalogue';
import { catalogueEnv, catalogueEvents, stopAndClean } from '@decor/catalogue/testing';
import { buildGateway, type CatalogueCache, loadGatewayConfig } from '@decor/gateway';
import { JWT_SECRET } from '@decor/gateway/testing';
import type { ServiceApp, StartedService } from '@decor/kit';
import { startService } from '@decor/kit';
import { type Answer, call, eventually, RUN_ID } from '@decor/kit/testing';
import { testEndpoints } from '@decor/stack';
import { createSigner } from 'fast-jwt';
import { Kafka, logLevel } from 'kafkajs';

jest.setTimeout(30_000);

const SUB = 'Cache Test Tables';
const LIST = `/product?subcategory=${encodeURIComponent(SUB)}`;
const table = (sku: string, priceCents: number) => ({
  sku,
  name: `Table ${sku}`,
  description: 'A table for the gateway cache test',
  priceCents,
  quantity: 4,
  category: 'TABLES',
  subcategory: SUB,
  qboId: `qbo-${sku}`,
  syncToken: '0',
  images: [{ id: 'img-1', url: `http://images.example/${sku}.svg`, primary: true, type: 'image/svg+xml' }],
});

interface Gateway {
  app: ServiceApp;
  api: string;
  cache: CatalogueCache;
}

let catalogue: StartedService<CatalogueContext>;
let catalogueStopped = false;
let gw: Gateway;
let other: Gateway;
let proxied: { app: ServiceApp; api: string };
const tokens = {} as Record<'customer' | 'admin' | 'superadmin', string>;
const kafka = new Kafka({
  clientId: `${RUN_ID}-cache-test`,
  brokers: testEndpoints().kafkaBrokers,
  logLevel: logLevel.NOTHING,
});

async function startGateway(extra: Record<string, string> = {}) {
  const app = await buildGateway(
    loadGatewayConfig({
      NODE_ENV: 'test',
      DECOR_ALLOW_DEV_SECRETS: '1',
      JWT_SECRET,
      CATALOGUE_SERVICE_URL: catalogue.url,
      KAFKA_BROKERS: testEndpoints().kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: RUN_ID,
      ...extra,
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, api: `${url}/api` };
}

async function startCachingGateway(extra: Record<string, string> = {}): Promise<Gateway> {
  const { app, api } = await startGateway(extra);
  const cache = app.catalogueCache as CatalogueCache;
  return { app, api, cache };
}

/** Waits until a gateway has heard the catalogue event with this correlation id (the last one published). */
const heard = (g: Gateway, correlationId: string) =>
  eventually(
    async () => (g.cache.invalidation?.last?.correlationId === correlationId ? true : undefined),
    10_000,
    `the gateway to hear ${correlationId}`,
  );

const counters = (g: Gateway) => ({ hits: g.cache.cache.hits, misses: g.cache.cache.misses });
const catalogueCounters = () => ({ hits: catalogue.ctx.cache.hits, misses: catalogue.ctx.cache.misses });

beforeAll(async () => {
  catalogue = await startService(
    catalogueService(loadCatalogueConfig(await catalogueEnv({ DEMO_CATALOGUE: 'false' }))),
    { exit: () => {} },
  );
  gw = await startCachingGateway();
  other = await startCachingGateway();
  proxied = await startGateway({ GATEWAY_CACHE_TTL_MS: '0' });
  expect(proxied.app.catalogueCache).toBeUndefined();
  expect(await gw.cache.invalidation?.listening).toBe(true);
  expect(await other.cache.invalidation?.listening).toBe(true);
  expect(gw.cache.invalidation?.groupId).not.toBe(other.cache.invalidation?.groupId);
  await saveProduct(catalogue.ctx, table('CT-1', 10_000), 'setup-1');
  await saveProduct(catalogue.ctx, table('CT-2', 12_000), 'setup-2');
  // No clear may arrive in the middle of a test: both events are read first.
  await catalogueEvents(kafka, (events) =>
    ['setup-1', 'setup-2'].every((id) => events.some((e) => e.correlationId === id)),
  );
  for (const g of [gw, other]) await readUpToEnd(g);
  for (const role of ['customer', 'admin', 'superadmin'] as const) {
    tokens[role] = gw.app.signToken({
      id: `${role}0123456789abcdef01`,
      permissions: role,
      email: `${role}@x.y`,
    });
  }
});

afterAll(async () => {
  for (const g of [gw, other, proxied]) await g?.app.close();
  if (catalogue && !catalogueStopped) await stopAndClean(catalogue);
});

describe('the gateway cache of catalogue reads', () => {
  it('serves a repeated product list itself: the catalogue is not asked again', async () => {
    const first = await call(gw.api, LIST, { token: tokens.customer });
    expect(first.status).toBe(200);
    expect(first.body.result.map((p: { price: number }) => p.price)).toEqual([100, 120]);
    const before = { gateway: counters(gw), catalogue: catalogueCounters() };
    for (let i = 0; i < 5; i++) {
      const again = await call(gw.api, LIST, { token: tokens.customer });
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('total_count')).toBe('2');
    }
    expect(counters(gw)).toEqual({ hits: before.gateway.hits + 5, misses: before.gateway.misses });
    expect(catalogueCounters()).toEqual(before.catalogue);
    // Another customer shares the entry (same viewer class), and a HEAD is answered from it too.
    const otherCustomer = gw.app.signToken({
      id: 'another0123456789abcdef',
      permissions: 'customer',
      email: 'c@x.y',
    });
    expect((await call(gw.api, LIST, { token: otherCustomer })).body).toEqual(first.body);
    const head = await fetch(`${gw.api}${LIST}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${tokens.customer}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('total_count')).toBe('2');
    expect(await head.text()).toBe('');
    expect(counters(gw).hits).toBe(before.gateway.hits + 7);
    expect(catalogueCounters()).toEqual(before.catalogue);
  });

  it('answers every cached read, for every viewer, exactly as proxying does (body, status, headers)', async () => {
    const reads = ['/categories', LIST, '/product/CT-1', '/product/CT-1/image', `${LIST}&order=name:DESC`];
    const viewers = { anonymous: undefined, customer: tokens.customer, admin: tokens.admin };
    const same = (a: Answer, b: Answer) => {
      expect(a.status).toBe(b.status);
      expect(a.body).toEqual(b.body);
      for (const h of [
        'content-type',
        'total_count',
        'access-control-allow-origin',
        'access-control-expose-headers',
        'x-content-type-options',
        'strict-transport-security',
        'cross-origin-resource-policy',
      ]) {
        expect({ h, value: a.headers.get(h) }).toEqual({ h, value: b.headers.get(h) });
      }
    };
    for (const path of reads) {
      for (const [viewer, token] of Object.entries(viewers)) {
        const headers = { origin: 'http://localhost:3000', 'x-request-id': `${viewer}-${path.length}` };
        const reference = await call(proxied.api, path, { token, headers });
        expect(reference.status).toBe(200);
        const missed = await call(gw.api, path, { token, headers });
        const hit = await call(gw.api, path, { token, headers });
        same(missed, reference);
        same(hit, reference);
        expect(hit.headers.get('x-request-id')).toBe(headers['x-request-id']);
      }
    }
  });

  it('never hands a signed-in answer to a visitor, or a visitor answer to a customer or staff', async () => {
    const path = '/product/CT-2';
    // Signed in first, then anonymous: no price or stock leaks.
    expect((await call(gw.api, path, { token: tokens.customer })).body.result[0].price).toBe(120);
    const anonymous = (await call(gw.api, path)).body.result[0];
    expect(anonymous.price).toBeUndefined();
    expect(anonymous.quantity).toBeUndefined();
    // Anonymous first, then signed in: the customer still sees them; staff also the accounting fields.
    const list = `${LIST}&limit=1`;
    expect((await call(gw.api, list)).body.result[0].price).toBeUndefined();
    const customer = (await call(gw.api, list, { token: tokens.customer })).body.result[0];
    expect(customer).toMatchObject({ price: 100, quantity: 4 });
    expect(customer.qboId).toBeUndefined();
    for (const staff of [tokens.admin, tokens.superadmin]) {
      expect((await call(gw.api, list, { token: staff })).body.result[0]).toMatchObject({
        price: 100,
        qboId: 'qbo-CT-1',
        syncToken: '0',
      });
    }
    // "Bearer null" from a client without a session is anonymous, as at the catalogue.
    const nullToken = await call(gw.api, list, { headers: { authorization: 'Bearer null' } });
    expect(nullToken.body.result[0].price).toBeUndefined();
  });

  it('refuses a forged or expired token with the 401 the catalogue gives, never a cached answer', async () => {
    expect((await call(gw.api, LIST, { token: tokens.customer })).status).toBe(200); // warm
    const before = counters(gw);
    const claims = { sub: '0123456789abcdef01234567', permissions: 'customer', email: 'c@x.y' };
    const expiredToken = createSigner({
      key: JWT_SECRET,
      iss: 'decor',
      aud: 'decor-session',
      clockTimestamp: Date.now() - 24 * 3600_000,
      expiresIn: 3600_000,
    })(claims);
    const forgedToken = createSigner({ key: 'not-the-real-secret-at-all' })(claims);
    for (const api of [gw.api, proxied.api]) {
      const expired = await call(api, LIST, { token: expiredToken });
      expect(expired.status).toBe(401);
      expect(expired.headers.get('expiredtoken')).toBe('true');
      expect(expired.body).toEqual({ message: 'Your session has expired' });
      const forged = await call(api, LIST, { token: forgedToken });
      expect(forged.status).toBe(401);
      expect(forged.headers.get('expiredtoken')).toBeNull();
      expect(forged.body).toEqual({ message: 'Invalid session token' });
    }
    // Refused before the cache is looked at.
    expect(counters(gw)).toEqual(before);
    // Where the catalogue ignores the token (categories, images), the gateway ignores it too.
    for (const api of [gw.api, proxied.api]) {
      expect((await call(api, '/categories', { token: expiredToken })).status).toBe(200);
      expect((await call(api, '/product/CT-1/image', { token: forgedToken })).status).toBe(200);
    }
  });

  it('keeps no answer but a 200: each of those asks the catalogue again', async () => {
    const refusals = [
      { path: '/product/NO-SUCH-SKU', status: 404, message: 'Product not found' },
      { path: '/product/bad%20sku', status: 400, message: 'Invalid id' },
      { path: `${LIST}&colour=red`, status: 400 },
      { path: `${LIST}&gt=quantity:2`, status: 401, message: 'Sign in to filter products by stock' },
    ];
    for (const { path, status, message } of refusals) {
      const before = counters(gw);
      const size = gw.cache.cache.size;
      for (let i = 0; i < 2; i++) {
        const res = await call(gw.api, path);
        expect({ path, status: res.status }).toEqual({ path, status });
        if (message) expect(res.body.message).toBe(message);
      }
      expect({ path, counters: counters(gw) }).toEqual({
        path,
        counters: { hits: before.hits, misses: before.misses + 2 },
      });
      expect(gw.cache.cache.size).toBe(size);
    }
  });

  it('is cleared by a product change in every gateway, not by a trucking fee change', async () => {
    const path = '/product/CT-1';
    for (const g of [gw, other])
      expect((await call(g.api, path, { token: tokens.customer })).body.result[0].price).toBe(100);

    // The trucking fee is not in these answers: its event leaves the cache as it is.
    const requestId = `trucking-${RUN_ID}`;
    const fee = await call(gw.api, '/trucking/1', {
      method: 'PUT',
      json: { value: 375 },
      token: tokens.admin,
      headers: { 'x-request-id': requestId },
    });
    expect(fee.status).toBe(200);
    await catalogueEvents(kafka, (events) =>
      events.some((e) => e.type === 'TruckingFeeChanged' && e.correlationId === requestId),
    );
    await readUpToEnd(gw);
    const size = gw.cache.cache.size;
    const before = counters(gw);
    expect((await call(gw.api, path, { token: tokens.customer })).body.result[0].price).toBe(100);
    expect(counters(gw)).toEqual({ hits: before.hits + 1, misses: before.misses });
    expect(gw.cache.cache.size).toBe(size);

    // A new price, written as the catalogue writes it (ProductUpserted through its outbox).
    await saveProduct(catalogue.ctx, table('CT-1', 15_000), 'price-change');
    for (const g of [gw, other]) {
      await heard(g, 'price-change');
      expect(g.cache.invalidation?.last).toEqual({ type: 'ProductUpserted', correlationId: 'price-change' });
      expect((await call(g.api, path, { token: tokens.customer })).body.result[0].price).toBe(150);
      const list = (await call(g.api, LIST, { token: tokens.customer })).body.result;
      expect(list.map((p: { price: number }) => p.price)).toEqual([150, 120]);
    }
  });

  it("reads past the catalogue's own cache on a miss: that instance may not have heard the event yet", async () => {
    const path = '/product/CT-2';
    const price = async (api: string) =>
      (await call(api, path, { token: tokens.customer })).body.result[0].price as number;
    expect(await price(gw.api)).toBe(120);
    expect(await price(proxied.api)).toBe(120); // the catalogue's cache holds it too
    // The database changes and this gateway clears its cache, as on an event the catalogue instance
    // has not read yet (its cache still has the old answer).
    await catalogue.ctx.products.updateOne({ _id: 'CT-2' }, { $set: { priceCents: 12_500 } });
    gw.cache.cache.invalidate();
    expect(await price(proxied.api)).toBe(120);
    expect(await price(gw.api)).toBe(125);
    await catalogue.ctx.products.updateOne({ _id: 'CT-2' }, { $set: { priceCents: 12_000 } });
    catalogue.ctx.cache.invalidate();
    gw.cache.cache.invalidate();
  });

  it("gives a caller that joined a read refused for another caller's token an answer of its own", async () => {
    // A stand-in catalogue that refuses one token (as when it expires between the gateway's check
    // and the catalogue's) after a delay, so the second caller joins that read.
    const refused = gw.app.signToken({
      id: 'refused0123456789abcdef',
      permissions: 'customer',
      email: 'r@x.y',
    });
    const asked: string[] = [];
    const stub = createServer((req, res) => {
      const token = (req.headers.authorization ?? '').replace('Bearer ', '');
      asked.push(token === refused ? 'refused' : 'accepted');
      if (token === refused) {
        setTimeout(() => {
          res.writeHead(401, { 'content-type': 'application/json', expiredtoken: 'true' });
          res.end(JSON.stringify({ message: 'Your session has expired' }));
        }, 300);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result: [{ id: 'S-1', price: 1 }] }));
      }
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const { app, api } = await startGateway({
      CATALOGUE_SERVICE_URL: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
    });
    try {
      const first = call(api, '/product/S-1', { token: refused });
      await eventually(async () => (asked.length === 1 ? true : undefined), 2_000, 'the first call');
      const second = await call(api, '/product/S-1', { token: tokens.customer });
      expect((await first).status).toBe(401);
      expect(second.status).toBe(200);
      expect(asked).toEqual(['refused', 'accepted']);
      expect((app.catalogueCache as CatalogueCache).cache.misses).toBe(2);
    } finally {
      await app.close();
      stub.close();
    }
  });

  it('serves and caches without Kafka (answers then age out by the TTL)', async () => {
    const offline = await startCachingGateway({ KAFKA_BROKERS: '127.0.0.1:9', GATEWAY_CACHE_TTL_MS: '1000' });
    try {
      expect(await offline.cache.invalidation?.listening).toBe(false);
      // Signed in, nothing is served: without Kafka no ended session can be told apart (issue 28).
      expect((await call(offline.api, '/product/CT-2', { token: tokens.customer })).status).toBe(503);
      // An anonymous visitor's read (no price shown: the name tells the versions apart).
      const name = async () => (await call(offline.api, '/product/CT-2')).body.result[0].name;
      expect(await name()).toBe('Table CT-2');
      expect(await name()).toBe('Table CT-2');
      expect(offline.cache.cache.hits).toBe(1);
      await saveProduct(catalogue.ctx, { ...table('CT-2', 13_000), name: 'Table CT-2b' }, 'offline-change');
      await eventually(
        async () => ((await name()) === 'Table CT-2b' ? true : undefined),
        5_000,
        'the TTL to pass',
      );
    } finally {
      const closing = Date.now();
      await offline.app.close();
      expect(Date.now() - closing).toBeLessThan(5_000);
    }
  });

  it('keeps answering cached reads while the catalogue is down; other reads get the proxy 503', async () => {
    await heard(gw, 'offline-change');
    const warm = await call(gw.api, LIST, { token: tokens.customer });
    expect(warm.status).toBe(200);
    catalogueStopped = true;
    await stopAndClean(catalogue);
    const cached = await call(gw.api, LIST, { token: tokens.customer });
    expect(cached.status).toBe(200);
    expect(cached.body).toEqual(warm.body);
    for (const api of [gw.api, proxied.api]) {
      const down = await call(api, '/product/CT-404');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({
        message: 'The catalogue service is unavailable, please try again shortly',
      });
    }
  });
});

/**
 * Waits until the gateway's reader has read everything now on the catalogue topic (its own position:
 * the group commits nothing to Kafka).
 */
async function readUpToEnd(g: Gateway): Promise<void> {
  const topic = `${RUN_ID}.catalogue`;
  const reader = g.cache.invalidation;
  if (!reader) throw new Error('the gateway does not read the catalogue topic');
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = (await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)] as const);
    await eventually(
      async () => {
        const read = reader.positions();
        const behind = ends.filter(([partition, end]) => Number(read.get(partition) ?? 0) < end);
        return behind.length === 0 ? true : undefined;
      },
      10_000,
      'the gateway to read the catalogue topic to its end',
    );
  } finally {
    await admin.disconnect();
  }
}
