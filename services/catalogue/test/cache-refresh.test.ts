/** `Cache-Control: no-cache` (what the gateway sends on its own cache misses) reads past the cache. */
import { eventually, RUN_ID } from '@decor/kit/testing';
import { saveProduct } from '../src/store/writes';
import { type Catalogue, call, startCatalogue, stopAndClean, tokenFor } from './support';

let service: Catalogue;
const lamp = {
  sku: 'TEST-LAMP-1',
  name: 'Test Lamp',
  description: 'A lamp for the refresh test',
  priceCents: 2000,
  quantity: 3,
  category: 'LIGHTING',
  subcategory: 'Lamps',
  images: [],
};

beforeAll(async () => {
  service = await startCatalogue({ MONGO_DB: `${RUN_ID}_refresh`, DEMO_CATALOGUE: 'false' });
  expect(await service.ctx.cacheInvalidation.listening).toBe(true);
  await saveProduct(service.ctx, lamp, 'refresh-test-create');
  // Its event clears the cache when it arrives: wait for it, so no clear comes mid-test.
  await eventually(
    async () =>
      service.ctx.cacheInvalidation.last?.correlationId === 'refresh-test-create' ? true : undefined,
    10_000,
    'the lamp event',
  );
});
afterAll(() => stopAndClean(service));

it('answers a no-cache request from the database and keeps that answer for the next readers', async () => {
  const token = tokenFor(service, 'customer');
  const price = async (path: string, headers: Record<string, string> = {}) =>
    (await call(service.url, path, { token, headers })).body.result[0].price as number;
  for (const path of [`/product/${lamp.sku}`, '/product?subcategory=Lamps']) {
    expect(await price(path)).toBe(20);
    // Changed behind the service's back (no event, no clear): the cached answer stays.
    await service.ctx.products.updateOne({ _id: lamp.sku }, { $set: { priceCents: 2100 } });
    expect(await price(path)).toBe(20);
    const misses = service.ctx.cache.misses;
    expect(await price(path, { 'cache-control': 'max-age=0, no-cache' })).toBe(21);
    expect(service.ctx.cache.misses).toBe(misses + 1);
    expect(await price(path)).toBe(21);
    await service.ctx.products.updateOne({ _id: lamp.sku }, { $set: { priceCents: 2000 } });
    service.ctx.cache.invalidate();
  }
});
