/** The demo catalogue: seeded once per database, also when two instances start at the same time. */
import { randomBytes } from 'node:crypto';
import { CategoryUpserted, ProductUpserted, TruckingFeeChanged } from '@decor/contracts';
import { eventually, RUN_ID } from '@decor/kit/testing';
import { DEMO_CATEGORIES, DEMO_PRODUCTS, seedDemoCatalogue } from '../src/demo-data';
import { type Catalogue, catalogueEvents, startCatalogue, stopAndClean } from './support';

const productCount = Object.values(DEMO_PRODUCTS).flatMap((subs) => Object.values(subs).flat()).length;
const categoryCount = DEMO_CATEGORIES.reduce((n, [, , subs]) => n + 1 + subs.length, 0);

// Its own database and topics, so the events counted are exactly this seed's.
const shared = { MONGO_DB: `${RUN_ID}_seed`, KAFKA_TOPIC_PREFIX: `${RUN_ID}seed` };
const topic = `${RUN_ID}seed.catalogue`;
const running: Catalogue[] = [];

async function counts(service: Catalogue) {
  const { products, categories, trucking } = service.ctx;
  return {
    products: await products.countDocuments(),
    categories: await categories.countDocuments(),
    truckingFees: await trucking.countDocuments(),
  };
}

async function pendingEvents(service: Catalogue): Promise<number> {
  const { products, categories, trucking } = service.ctx;
  const pending = { 'outbox.0': { $exists: true } };
  return (
    (await products.countDocuments(pending)) +
    (await categories.countDocuments(pending)) +
    (await trucking.countDocuments(pending))
  );
}

afterAll(async () => {
  const [first, ...others] = running;
  for (const s of others) await s.shutdown('test over');
  await stopAndClean(first);
});

test('two instances starting at once on an empty database seed one catalogue and announce it once', async () => {
  running.push(...(await Promise.all([startCatalogue(shared), startCatalogue(shared)])));
  const [a] = running as [Catalogue];
  expect(await counts(a)).toEqual({ products: productCount, categories: categoryCount, truckingFees: 1 });

  await eventually(
    async () => ((await pendingEvents(a)) === 0 ? true : undefined),
    10_000,
    'outboxes to drain',
  );
  const events = await catalogueEvents(
    a.ctx.kafka,
    // Read until every kind is complete: the events sit on different partitions and arrive in any order.
    (seen) => {
      const ids = (type: string) =>
        new Set(seen.filter((e) => e.type === type).map((e) => e.aggregateId)).size;
      return (
        ids(ProductUpserted.type) === productCount &&
        ids(CategoryUpserted.type) === categoryCount &&
        ids(TruckingFeeChanged.type) === 1
      );
    },
    { topic },
  );
  const ofType = (type: string) => events.filter((e) => e.type === type);
  expect(new Set(ofType(ProductUpserted.type).map((e) => e.aggregateId)).size).toBe(productCount);
  expect(new Set(ofType(CategoryUpserted.type).map((e) => e.aggregateId)).size).toBe(categoryCount);
  expect(ofType(TruckingFeeChanged.type).map((e) => e.payload)).toEqual([{ id: '1', valueCents: 35_000 }]);
  expect(ofType(CategoryUpserted.type).map((e) => e.payload)).toContainEqual({
    id: '11',
    name: 'Bar Front',
    parentId: '10',
  });
  // Issue 15: linens and the chiavari chair keep two days after a booking; the rest inherit.
  expect(ofType(CategoryUpserted.type).map((e) => e.payload)).toContainEqual({
    id: '50',
    name: 'LINENS',
    turnaround: { after: 2 },
  });
  const buffers = (type: string) =>
    ofType(type).flatMap((e) => {
      const p = e.payload as { turnaround?: unknown };
      return p.turnaround ? [[e.aggregateId, p.turnaround]] : [];
    });
  expect(buffers(ProductUpserted.type)).toEqual([['SEA-CH-001', { after: 2 }]]);
  expect(buffers(CategoryUpserted.type)).toEqual([['50', { after: 2 }]]);
  expect(ofType(ProductUpserted.type).find((e) => e.aggregateId === 'BAR-FR-001')?.payload).toMatchObject({
    sku: 'BAR-FR-001',
    name: 'Mirrored Bar Front',
    priceCents: 25_000,
    quantity: 4,
    category: 'BARS',
    subcategory: 'Bar Front',
    images: [
      expect.objectContaining({ primary: true, type: 'image/svg+xml' }),
      expect.anything(),
      expect.anything(),
    ],
  });

  // Exactly one event per document: the topic holds no more messages than that.
  const admin = a.ctx.kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const total = offsets.reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
  expect(total).toBe(productCount + categoryCount + 1);
});

test('a later start on the seeded database changes nothing', async () => {
  const before = await counts(running[0] as Catalogue);
  const again = await startCatalogue(shared);
  running.push(again);
  expect(await counts(again)).toEqual(before);
  expect(await pendingEvents(again)).toBe(0);
  expect(await seedDemoCatalogue(again.ctx)).toBe(false);
});

test('production never seeds demo data, but the trucking fee exists', async () => {
  const production = await startCatalogue({
    NODE_ENV: 'production',
    // Production takes no test flag and no published secret: an installation's own key.
    DECOR_ALLOW_DEV_SECRETS: '',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    MONGO_DB: `${RUN_ID}_production`,
    KAFKA_TOPIC_PREFIX: `${RUN_ID}prod`,
  });
  try {
    expect(await counts(production)).toEqual({ products: 0, categories: 0, truckingFees: 1 });
  } finally {
    await production.ctx.connection.dropDatabase();
    await production.shutdown('test over');
  }
});
