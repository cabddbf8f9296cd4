/**
 * Files uploaded through a presigned URL but never attached are deleted by a delayed job (one per
 * key, id from the key), here after 2 s; attached ones stay.
 */
import { eventually } from '@decor/kit/testing';
import { type Catalogue, call, startCatalogue, stopAndClean, tokenFor } from './support';

/** The presigned POST's form, then the file, straight to S3 (as a browser sends it). */
function postForm(url: string, fields: Record<string, string>, body: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([body], { type: 'image/png' }), 'x.png');
  return fetch(url, { method: 'POST', body: form });
}

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
  const [kept, left] = presigned.body.result as {
    url: string;
    fields: Record<string, string>;
    imageUrl: string;
  }[];
  for (const p of [kept, left])
    expect((await postForm(p?.url as string, p?.fields ?? {}, 'x'.repeat(500))).status).toBe(204);
  expect((await post('/product/CLEAN-1/image', [kept?.imageUrl])).status).toBe(201);

  const status = async (url: string) => (await fetch(url, { method: 'HEAD' })).status;
  expect(await status(left?.imageUrl as string)).toBe(200);
  // The job deletes the file, then the upload's record: wait for both (on a loaded machine the check
  // between the two found the record still there).
  const uploadsLeft = () => service.ctx.uploads.countDocuments({ sku: 'CLEAN-1' });
  await eventually(
    async () =>
      (await status(left?.imageUrl as string)) === 404 && (await uploadsLeft()) === 0 ? true : undefined,
    20_000,
    'cleanup',
  );
  expect(await uploadsLeft()).toBe(0);
  expect(await status(kept?.imageUrl as string)).toBe(200);
  const late = await post('/product/CLEAN-1/image', [left?.imageUrl]);
  expect(late.status).toBe(400);
  expect((await call(base, '/product/CLEAN-1/image')).body.result).toHaveLength(1);
});

describe('an upload an attach is holding when its cleanup comes', () => {
  const presignOne = async (name: string) => {
    const res = await call(service.url, '/product/CLEAN-1/presignedUrl', {
      method: 'POST',
      token,
      json: [{ id: name, category: 'BARS', type: 'image/png' }],
    });
    const [link] = res.body.result as { url: string; fields: Record<string, string>; imageUrl: string }[];
    expect((await postForm(link?.url as string, link?.fields ?? {}, 'png')).status).toBe(204);
    return {
      url: link?.imageUrl as string,
      key: service.ctx.images.keyOf(link?.imageUrl as string) as string,
    };
  };
  const status = async (url: string) => (await fetch(url, { method: 'HEAD' })).status;

  it('waits while the attach is at work, and deletes the file once the attach let go of it without attaching', async () => {
    const { url, key } = await presignOne('held.png');
    await service.ctx.uploads.updateOne({ _id: key }, { $set: { state: 'attaching' } });
    // The cleanup comes (2 s) and finds it held: the file stays.
    await new Promise((r) => setTimeout(r, 3_500));
    expect(await status(url)).toBe(200);
    // The attach fails and releases it; the retried cleanup removes it.
    await service.ctx.uploads.updateOne({ _id: key }, { $set: { state: 'pending' } });
    await eventually(
      async () => ((await status(url)) === 404 ? true : undefined),
      30_000,
      'cleanup after release',
    );
  });

  it('removes the file of an attach that died half-way (held for minutes, on no product)', async () => {
    const { url, key } = await presignOne('orphan.png');
    await service.ctx.uploads.updateOne(
      { _id: key },
      { $set: { state: 'attaching', updatedAt: new Date(Date.now() - 10 * 60_000) } },
      { timestamps: false },
    );
    // The job deletes the file, then its record: wait for both (reading the record right after the
    // file's 404 raced the second write once).
    await eventually(
      async () =>
        (await status(url)) === 404 && (await service.ctx.uploads.countDocuments({ _id: key })) === 0
          ? true
          : undefined,
      20_000,
      'orphan cleanup',
    );
  });
});
