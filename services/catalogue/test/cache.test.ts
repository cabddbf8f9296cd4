/** The read cache: its rules in isolation, then two instances kept fresh by catalogue events. */
import { eventually, RUN_ID } from '@decor/kit/testing';
import { type CachedAnswer, ResponseCache } from '../src/cache';
import { saveProduct } from '../src/store/writes';
import { type Catalogue, call, startCatalogue, stopAndClean, tokenFor } from './support';

const answerOf = (n: number): CachedAnswer => ({ body: String(n), headers: {} });

describe('ResponseCache', () => {
  it('serves a stored answer until it expires', async () => {
    const cache = new ResponseCache(50);
    let made = 0;
    const produce = async () => answerOf(++made);
    expect((await cache.get('k', produce)).body).toBe('1');
    expect((await cache.get('k', produce)).body).toBe('1');
    expect(cache.hits).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect((await cache.get('k', produce)).body).toBe('2');
  });

  it('makes one answer for concurrent misses of the same key', async () => {
    const cache = new ResponseCache(10_000);
    let made = 0;
    const produce = async () => {
      made += 1;
      await new Promise((r) => setTimeout(r, 20));
      return answerOf(made);
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get('k', produce)));
    expect(made).toBe(1);
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set(['1']));
  });

  it('does not keep an answer read before an invalidation', async () => {
    const cache = new ResponseCache(10_000);
    let release: () => void = () => {};
    const slow = cache.get('k', async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      return answerOf(1); // read before the change below
    });
    cache.invalidate();
    release();
    expect((await slow).body).toBe('1');
    expect(cache.size).toBe(0);
    expect((await cache.get('k', async () => answerOf(2))).body).toBe('2');
  });

  it('never stores failed reads, holds at most maxEntries and maxBytes, and can be turned off', async () => {
    const cache = new ResponseCache(10_000, 3);
    await expect(cache.get('x', async () => Promise.reject(new Error('not found')))).rejects.toThrow();
    expect(cache.size).toBe(0);
    for (let i = 0; i < 5; i++) await cache.get(`k${i}`, async () => answerOf(i));
    expect(cache.size).toBe(3);
    const small = new ResponseCache(10_000, 100, 10);
    await small.get('a', async () => ({ body: '12345678', headers: {} }));
    await small.get('b', async () => ({ body: '1234', headers: {} }));
    expect(small.size).toBe(1); // 12 bytes > 10: the older one went
    const off = new ResponseCache(0);
    let made = 0;
    await off.get('k', async () => answerOf(++made));
    await off.get('k', async () => answerOf(++made));
    expect(made).toBe(2);
  });
});

describe('two catalogue instances on one database', () => {
  const shared = { MONGO_DB: `${RUN_ID}_cache`, DEMO_CATALOGUE: 'false' };
  let a: Catalogue;
  let b: Catalogue;
  const chair = {
    sku: 'TEST-CH-1',
    name: 'Test Chair',
    description: 'A chair for the cache test',
    priceCents: 1000,
    quantity: 5,
    category: 'SEATING',
    subcategory: 'Chairs',
    images: [],
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([startCatalogue(shared), startCatalogue(shared)]);
    // Both must be reading the catalogue topic before the change is made.
    expect(await a.ctx.cacheInvalidation.listening).toBe(true);
    expect(await b.ctx.cacheInvalidation.listening).toBe(true);
    await saveProduct(a.ctx, chair, 'cache-test-create');
  });

  afterAll(async () => {
    await b?.shutdown('test over');
    await stopAndClean(a);
  });

  const price = async (service: Catalogue, path = `/product/${chair.sku}`) => {
    const res = await call(service.url, path, { token: tokenFor(service, 'customer') });
    return res.body.result[0].price as number;
  };

  it("a write in one instance reaches the other instance's cached answers through the catalogue topic", async () => {
    // B has heard of the chair: no invalidation is on its way any more.
    await eventually(
      async () => (b.ctx.cacheInvalidation.last?.correlationId === 'cache-test-create' ? true : undefined),
      10_000,
      'b to hear of the chair',
    );
    expect(await price(b)).toBe(10);
    const listing = `/product?subcategory=Chairs`;
    expect(await price(b, listing)).toBe(10);

    // A change behind the service's back (no event) stays invisible: B answers from its cache.
    await b.ctx.products.updateOne({ _id: chair.sku }, { $set: { priceCents: 999_00 } });
    expect(await price(b)).toBe(10);
    expect(await price(b, listing)).toBe(10);

    // A real change in A: A's own cache is cleared at once, B's when the event arrives.
    await saveProduct(a.ctx, { ...chair, priceCents: 1250 }, 'cache-test-price');
    expect(await price(a)).toBe(12.5);
    await eventually(
      async () => ((await price(b)) === 12.5 ? true : undefined),
      10_000,
      'b to see the new price',
    );
    expect(b.ctx.cacheInvalidation.last).toEqual({
      type: 'ProductUpserted',
      correlationId: 'cache-test-price',
    });
    expect(await price(b, listing)).toBe(12.5);
  });

  it('keeps answers per viewer: anonymous visitors still get no price from a warm cache', async () => {
    await price(a); // warm the signed-in answer
    const anonymous = await call(a.url, `/product/${chair.sku}`);
    expect(anonymous.body.result[0].price).toBeUndefined();
    expect(anonymous.body.result[0].quantity).toBeUndefined();
  });
});
