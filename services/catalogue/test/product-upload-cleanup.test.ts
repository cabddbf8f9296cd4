/**
 * Files uploaded through a presigned URL but never attached are deleted by a delayed job (one per
 * key, id from the key), here after 2 s; attached ones stay.
 */
import { eventually } from '@decor/kit/testing';
import { type Catalogue, call, startCatalogue, stopAndClean, tokenFor } from './support';

let service: Catalogue;
let token: string;

beforeAll(async () => {
  service = await startCatalogue({ DEMO_CATALOGUE: 'false', UPLOAD_CLEANUP_AFTER_S: '2' });
  token = tokenFor(service, 'admin');
});
afterAll(() => stopAndClean(service));

it('deletes an upload that was never attached, keeps the attached one, and refuses the expired URL', async () => {
  const base = service.url;
  const post = (path: string, json: unknown) => call(base, path, { method: 'POST', token, json });
  const cat = await post('/categories', { name: 'BARS' });
  await post('/categories', { name: 'Bar Front', isSubCategory: true, parent: cat.body.result.Id });
  const product = {
    name: 'Bar',
    description: 'A bar',
    category: 'BARS',
    subcategory: 'Bar Front',
    price: 1,
    quantity: 1,
  };
  expect((await post('/product', { id: 'CLEAN-1', ...product })).status).toBe(201);

  const presigned = await post('/product/CLEAN-1/presignedUrl', [
    { id: 'kept.png', category: 'BARS', type: 'image/png' },
    { id: 'left.png', category: 'BARS', type: 'image/png' },
  ]);
  expect(presigned.status).toBe(200);
  const [kept, left] = presigned.body.result as { url: string; imageUrl: string }[];
  for (const p of [kept, left]) {
    const put = await fetch(p?.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: 'x'.repeat(500),
    });
    expect(put.status).toBe(200);
  }
  expect((await post('/product/CLEAN-1/image', [kept?.imageUrl])).status).toBe(201);

  const status = async (url: string) => (await fetch(url, { method: 'HEAD' })).status;
  expect(await status(left?.imageUrl as string)).toBe(200);
  await eventually(
    async () => ((await status(left?.imageUrl as string)) === 404 ? true : undefined),
    20_000,
    'cleanup',
  );
  expect(await service.ctx.uploads.countDocuments({ sku: 'CLEAN-1' })).toBe(0);
  expect(await status(kept?.imageUrl as string)).toBe(200);
  const late = await post('/product/CLEAN-1/image', [left?.imageUrl]);
  expect(late.status).toBe(400);
  expect((await call(base, '/product/CLEAN-1/image')).body.result).toHaveLength(1);
});
