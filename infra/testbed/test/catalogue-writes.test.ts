/**
 * The catalogue's staff calls through the real gateway (its routing table, its cache of catalogue
 * reads): the role matrix holds there too, and a write is seen by the writer's very next read through it.
 */

import {
  type Catalogue,
  call,
  catalogueEvents,
  startCatalogue,
  stopAndClean,
  tokenFor,
} from '@decor/catalogue/testing';
import { CategoryUpserted, type EventEnvelope, ProductUpserted } from '@decor/contracts';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { eventually, RUN_ID } from '@decor/kit/testing';
import { testEndpoints } from '@decor/stack';
import type { FastifyInstance } from 'fastify';

let catalogue: Catalogue;
let gateway: FastifyInstance;
let api: string;
let staff: string;
let customer: string;

beforeAll(async () => {
  catalogue = await startCatalogue({ DEMO_CATALOGUE: 'false' });
  gateway = await buildGateway(
    loadGatewayConfig({
      NODE_ENV: 'test',
      DECOR_ALLOW_DEV_SECRETS: '1',
      JWT_SECRET: 'test-secret-shared-by-gateway-and-services',
      CATALOGUE_SERVICE_URL: catalogue.url,
      KAFKA_BROKERS: testEndpoints().kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: RUN_ID,
      GATEWAY_CACHE_TTL_MS: '60000',
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  api = `${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`;
  staff = tokenFor(catalogue, 'admin');
  customer = tokenFor(catalogue, 'customer');
  await eventually(async () => ((await gateway.catalogueCache?.invalidation?.listening) ? true : undefined));
});

afterAll(async () => {
  await gateway?.close();
  await stopAndClean(catalogue);
});

it('routes every new call to the catalogue: visitors 401, customers 403, staff through', async () => {
  const calls: [string, string, unknown][] = [
    ['POST', '/product', {}],
    ['PUT', '/product/X-1', { quantity: 1 }],
    ['DELETE', '/product/X-1', undefined],
    ['POST', '/categories', { name: 'x' }],
    ['GET', '/categories/x/turnaround', undefined],
    ['PUT', '/categories/x/turnaround', { after: 2 }],
    ['POST', '/product/X-1/presignedUrl', []],
    ['POST', '/product/X-1/image', []],
    ['PUT', '/product/X-1/image/a', { primary: true }],
    ['DELETE', '/product/X-1/image/a', undefined],
  ];
  for (const [method, path, json] of calls) {
    expect([method, path, (await call(api, path, { method, json })).status]).toEqual([method, path, 401]);
    expect([method, path, (await call(api, path, { method, json, token: customer })).status]).toEqual([
      method,
      path,
      403,
    ]);
    // Staff reach the service: its own answer (a rule or a 404), never the gateway's 404.
    const res = await call(api, path, { method, json, token: staff });
    expect([method, path, res.status, typeof res.body?.message]).not.toEqual([method, path, 401, 'string']);
    expect(res.status === 404 ? res.body.message : 'ok').not.toMatch(/^Route .* not found$/);
  }
});

it("a staff write is seen by the writer's next read through the same gateway (its cache cleared at once)", async () => {
  const post = (path: string, json: unknown) => call(api, path, { method: 'POST', token: staff, json });
  const cat = await post('/categories', { name: 'BARS' });
  expect(cat.status).toBe(201);
  expect((await post('/categories', { name: 'Bar Front', isSubCategory: true, parent: 'BARS' })).status).toBe(
    201,
  );
  expect((await call(api, '/categories')).body.result.subcategories).toHaveLength(1);
  const form = {
    id: 'GW-1',
    name: 'Bar',
    description: 'A bar',
    category: 'BARS',
    subcategory: 'Bar Front',
    price: 10,
    quantity: 2,
  };
  expect((await post('/product', form)).status).toBe(201);

  for (let round = 1; round <= 5; round++) {
    // Cached for customers, then changed by staff, then read again at once.
    expect((await call(api, '/product/GW-1', { token: customer })).status).toBe(200);
    expect((await call(api, '/product/GW-1', { token: customer })).body.result[0].price).toBe(10 * round);
    const put = await call(api, '/product/GW-1', {
      method: 'PUT',
      token: staff,
      json: { price: 10 * (round + 1) },
    });
    expect(put.status).toBe(200);
    expect((await call(api, '/product/GW-1', { token: customer })).body.result[0].price).toBe(
      10 * (round + 1),
    );
  }

  const [link] = (
    await post('/product/GW-1/presignedUrl', [{ id: 'a.png', category: 'BARS', type: 'image/png' }])
  ).body.result;
  expect((await call(api, '/product/GW-1/image')).body.result).toEqual([]);
  // The presigned POST's form, then the file, straight to S3 (as a browser sends it).
  const upload = new FormData();
  for (const [name, value] of Object.entries(link.fields as Record<string, string>))
    upload.append(name, value);
  upload.append('file', new Blob(['png'], { type: 'image/png' }), 'a.png');
  expect((await fetch(link.url, { method: 'POST', body: upload })).status).toBe(204);
  expect((await post('/product/GW-1/image', [link.imageUrl])).status).toBe(201);
  expect((await call(api, '/product/GW-1/image')).body.result).toHaveLength(1);

  expect((await call(api, '/product/GW-1', { method: 'DELETE', token: staff })).status).toBe(200);
  expect((await call(api, '/product/GW-1', { token: customer })).status).toBe(404);
});

it('turnaround buffers (issue 15): staff set them through the gateway, see them at once, and they are announced', async () => {
  const post = (path: string, json: unknown) => call(api, path, { method: 'POST', token: staff, json });
  const linens = (await post('/categories', { name: 'LINENS' })).body.result.Id;
  await post('/categories', { name: 'Napkins', isSubCategory: true, parent: linens });
  const form = {
    id: 'GW-NAP',
    name: 'Napkin',
    description: 'Linen',
    category: 'LINENS',
    subcategory: 'Napkins',
    price: 1,
    quantity: 50,
  };
  expect((await post('/product', { ...form, turnaroundAfter: '2' })).status).toBe(201);
  const staffRead = async () => (await call(api, '/product/GW-NAP', { token: staff })).body.result[0];
  expect(await staffRead()).toMatchObject({ turnaroundBefore: null, turnaroundAfter: 2 });
  // Cached for staff, then changed, then read again at once through the same gateway.
  const put = await call(api, '/product/GW-NAP', {
    method: 'PUT',
    token: staff,
    json: { turnaroundBefore: 0 },
  });
  expect(put.status).toBe(200);
  expect(await staffRead()).toMatchObject({ turnaroundBefore: 0, turnaroundAfter: 2 });
  const bad = await call(api, '/product/GW-NAP', {
    method: 'PUT',
    token: staff,
    json: { turnaroundAfter: 31 },
  });
  expect([bad.status, bad.body.message]).toEqual([400, 'Turnaround days after must be at most 30']);

  const path = `/categories/${linens}/turnaround`;
  const set = await call(api, path, { method: 'PUT', token: staff, json: { before: null, after: 3 } });
  expect(set.body).toEqual({ result: { Id: linens, Name: 'LINENS', before: null, after: 3 } });
  expect((await call(api, path, { token: staff })).body.result).toMatchObject({ after: 3 });

  // Read until both are out: they sit on different partitions and arrive in any order.
  const last = (events: EventEnvelope[], type: string, id: string) =>
    events.filter((e) => e.type === type && e.aggregateId === id).at(-1)?.payload as
      | { turnaround?: { before?: number } }
      | undefined;
  const events = await catalogueEvents(
    catalogue.ctx.kafka,
    (all) =>
      last(all, ProductUpserted.type, 'GW-NAP')?.turnaround?.before === 0 &&
      last(all, CategoryUpserted.type, linens)?.turnaround !== undefined,
  );
  expect(last(events, ProductUpserted.type, 'GW-NAP')).toMatchObject({ turnaround: { before: 0, after: 2 } });
  expect(last(events, CategoryUpserted.type, linens)).toEqual({
    id: linens,
    name: 'LINENS',
    turnaround: { after: 3 },
  });
});
