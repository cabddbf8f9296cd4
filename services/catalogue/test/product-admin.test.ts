/**
 * Staff's product, category and image calls over real HTTP, against the real local S3 (s3rver) and
 * Kafka: every §5 rule, the role matrix, the image limits and the events.
 */
import { randomBytes } from 'node:crypto';
import { CategoryUpserted, type EventEnvelope, ProductDeleted, ProductUpserted } from '@decor/contracts';
import { eventually } from '@decor/kit/testing';
import {
  type Catalogue,
  call,
  catalogueEvents,
  type Role,
  startCatalogue,
  stopAndClean,
  tokenFor,
} from './support';

let service: Catalogue;
let base: string;
const tokens = {} as Record<Role, string>;
let bars: { Id: string };

beforeAll(async () => {
  service = await startCatalogue({ DEMO_CATALOGUE: 'false' });
  base = service.url;
  for (const role of ['customer', 'admin', 'superadmin'] as const) tokens[role] = tokenFor(service, role);
  // The tree the products below are filed in, made through the API.
  bars = (await call(base, '/categories', { method: 'POST', token: tokens.admin, json: { name: 'BARS' } }))
    .body.result;
  for (const name of ['Bar Front', 'Back Bar'])
    await call(base, '/categories', {
      method: 'POST',
      token: tokens.admin,
      json: { name, isSubCategory: true, parent: bars.Id },
    });
  const lighting = (
    await call(base, '/categories', { method: 'POST', token: tokens.admin, json: { name: 'LIGHTING' } })
  ).body.result;
  await call(base, '/categories', {
    method: 'POST',
    token: tokens.admin,
    json: { name: 'Lamps', isSubCategory: true, parent: lighting.Id },
  });
});

afterAll(() => stopAndClean(service));

let skuSeq = 0;
const nextSku = () => `T-${Date.now().toString(36)}-${++skuSeq}`.toUpperCase();

function productForm(sku = nextSku()) {
  return {
    id: sku,
    name: 'Mirror Bar <b>Front</b>',
    description: 'A bar front with mirrored panels',
    category: 'BARS',
    subcategory: 'Bar Front',
    price: '125.5',
    quantity: 4,
  };
}

async function createProduct(role: Role = 'admin', form = productForm()) {
  const res = await call(base, '/product', { method: 'POST', token: tokens[role], json: form });
  expect(res.status).toBe(201);
  return form.id;
}

const png = (bytes: number) => randomBytes(bytes);

/** One presigned upload as the service answers it: a form to POST to S3. */
interface Link {
  id: string;
  url: string;
  fields: Record<string, string>;
  imageUrl: string;
  type: string;
}

/** POSTs `body` with the link's form as a browser does (no Authorization); `fields` overrides some. */
function postFile(link: Link, body: Uint8Array | string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...link.fields, ...fields })) form.append(name, value);
  form.append(
    'file',
    new Blob([typeof body === 'string' ? body : new Uint8Array(body)], {
      type: fields['Content-Type'] ?? link.type,
    }),
    link.id,
  );
  return fetch(link.url, { method: 'POST', headers: { origin: 'http://127.0.0.1:8080' }, body: form });
}

/** Presign, POST to S3 as a browser does (no Authorization), and answer the URLs to attach. */
async function upload(
  sku: string,
  files: { name: string; bytes: number; type?: string }[],
  role: Role = 'admin',
) {
  const presigned = await call(base, `/product/${sku}/presignedUrl`, {
    method: 'POST',
    token: tokens[role],
    json: files.map((f) => ({ id: f.name, category: 'BARS', type: f.type ?? 'image/png' })),
  });
  expect(presigned.status).toBe(200);
  for (const [i, p] of (presigned.body.result as Link[]).entries()) {
    const posted = await postFile(p, png(files[i]?.bytes ?? 0));
    expect(posted.status).toBe(204);
  }
  return presigned.body.result as Link[];
}

async function attach(sku: string, urls: string[], role: Role = 'admin') {
  return call(base, `/product/${sku}/image`, { method: 'POST', token: tokens[role], json: urls });
}

async function withImages(count: number) {
  const sku = await createProduct();
  if (count === 0) return sku;
  const files = Array.from({ length: count }, (_, i) => ({ name: `photo-${i + 1}.png`, bytes: 2_000 }));
  const res = await attach(
    sku,
    (await upload(sku, files)).map((u) => u.imageUrl),
  );
  expect(res.status).toBe(201);
  return sku;
}

const objectStatus = async (url: string) => (await fetch(url, { method: 'HEAD' })).status;

const eventsOf = (type: string, aggregateId: string) => (all: EventEnvelope[]) =>
  all.filter((e) => e.type === type && e.aggregateId === aggregateId);

describe('role matrix of the new routes', () => {
  const routes = (sku: string): [string, string, unknown][] => [
    ['POST', '/product', productForm()],
    ['PUT', `/product/${sku}`, { quantity: 3 }],
    ['DELETE', `/product/${sku}`, undefined],
    ['POST', '/categories', { name: 'Nope' }],
    ['POST', `/product/${sku}/presignedUrl`, [{ id: 'a.png', category: 'BARS', type: 'image/png' }]],
    ['POST', `/product/${sku}/image`, ['http://x/y.png']],
    ['PUT', `/product/${sku}/image/abc`, { primary: true }],
    ['DELETE', `/product/${sku}/image/abc`, undefined],
  ];

  it('refuses visitors (401) and customers (403), whatever they send', async () => {
    const sku = await createProduct();
    for (const [method, path, json] of routes(sku)) {
      const visitor = await call(base, path, { method, json });
      expect([method, path, visitor.status]).toEqual([method, path, 401]);
      const customer = await call(base, path, { method, json, token: tokens.customer });
      expect([method, path, customer.status]).toEqual([method, path, 403]);
      // Refused before the body is read: a bad body gets the same answer.
      expect((await call(base, path, { method, json: { junk: 1 } })).status).toBe(401);
    }
    expect((await call(base, `/product/${sku}`)).body.result[0].quantity).toBeUndefined();
    expect((await call(base, `/product/${sku}`, { token: tokens.admin })).body.result[0].quantity).toBe(4);
  });

  it.each(['admin', 'superadmin'] as const)('lets %s do every one of them', async (role) => {
    const created = await call(base, '/product', {
      method: 'POST',
      token: tokens[role],
      json: productForm(),
    });
    expect(created.status).toBe(201);
    const sku = created.body.result.id;
    expect(
      (await call(base, `/product/${sku}`, { method: 'PUT', token: tokens[role], json: { quantity: 3 } }))
        .status,
    ).toBe(200);
    const category = await call(base, '/categories', {
      method: 'POST',
      token: tokens[role],
      json: { name: `Cat ${role}` },
    });
    expect(category.status).toBe(201);
    const [first, second] = await upload(
      sku,
      [
        { name: 'a.png', bytes: 100 },
        { name: 'b.png', bytes: 100 },
      ],
      role,
    );
    // The served URL, or the file's URL under the upload endpoint.
    const attached = await attach(
      sku,
      [first?.imageUrl as string, `${second?.url}/${second?.fields.key}`],
      role,
    );
    expect(attached.status).toBe(201);
    const other = attached.body.result[1].id;
    const primary = await call(base, `/product/${sku}/image/${other}`, {
      method: 'PUT',
      token: tokens[role],
      json: { primary: true },
    });
    expect(primary.status).toBe(200);
    const removed = await call(base, `/product/${sku}/image/${other}`, {
      method: 'DELETE',
      token: tokens[role],
    });
    expect(removed.status).toBe(200);
    expect((await call(base, `/product/${sku}`, { method: 'DELETE', token: tokens[role] })).status).toBe(200);
  });
});

describe('POST /product', () => {
  it('creates the product with the SKU the admin typed, shows it and announces it', async () => {
    const form = productForm();
    const res = await call(base, '/product', { method: 'POST', token: tokens.superadmin, json: form });
    expect(res.status).toBe(201);
    expect(res.body.result).toEqual({
      id: form.id,
      name: form.name,
      description: form.description,
      category: 'BARS',
      subcategory: 'Bar Front',
      price: 125.5,
      quantity: 4,
      Images: [],
      qboId: null,
      syncToken: null,
      turnaroundBefore: null,
      turnaroundAfter: null,
    });
    const listed = await call(
      base,
      `/product?category=BARS&subcategory=${encodeURIComponent('Bar Front')}&limit=100`,
    );
    expect(listed.body.result.map((p: { id: string }) => p.id)).toContain(form.id);
    const events = await catalogueEvents(
      service.ctx.kafka,
      (all) => eventsOf(ProductUpserted.type, form.id)(all).length > 0,
    );
    expect(eventsOf(ProductUpserted.type, form.id)(events)[0]?.payload).toMatchObject({
      sku: form.id,
      priceCents: 12550,
      quantity: 4,
      category: 'BARS',
      subcategory: 'Bar Front',
      images: [],
    });
  });

  it('refuses a SKU that is taken (409)', async () => {
    const sku = await createProduct();
    const again = await call(base, '/product', {
      method: 'POST',
      token: tokens.admin,
      json: productForm(sku),
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`A product with the SKU '${sku}' already exists`);
  });

  it.each([
    ['id', 'SKU: This field is required'],
    ['name', 'Name: This field is required'],
    ['description', 'Description: This field is required'],
    ['category', 'Category: This field is required'],
    ['subcategory', 'Subcategory: This field is required'],
    ['price', 'Price: This field is required'],
    ['quantity', 'Quantity: This field is required'],
  ])('requires %s (missing or blank)', async (field, message) => {
    for (const value of [undefined, '  ']) {
      const form: Record<string, unknown> = { ...productForm(), [field]: value };
      if (value === undefined) delete form[field];
      if (field === 'id' && value !== undefined) form.id = '';
      const res = await call(base, '/product', { method: 'POST', token: tokens.admin, json: form });
      expect([field, res.status, res.body.message]).toEqual([field, 400, message]);
    }
  });

  it.each([
    [{ price: 'twelve' }, 'Price must be a number'],
    [{ quantity: '3 chairs' }, 'Quantity must be a number'],
    [{ quantity: 1.5 }, 'Quantity must be a whole number'],
    [{ price: -1 }, 'Price must be 0 or more'],
    [{ subcategory: 'Lamps' }, "The subcategory 'Lamps' does not belong to the category 'BARS'"],
    [{ category: 'TENTS' }, "There is no category named 'TENTS'"],
    [
      { id: 'has space' },
      'SKU may hold letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit',
    ],
    [{ colour: 'red' }, "Unknown field 'colour'"],
  ])('refuses %j', async (change, message) => {
    const res = await call(base, '/product', {
      method: 'POST',
      token: tokens.admin,
      json: { ...productForm(), ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("takes '{id}__{name}' category pairs and numbers as numbers", async () => {
    const form = {
      ...productForm(),
      category: `${bars.Id}__BARS`,
      subcategory: '11__Back Bar',
      price: 10,
      quantity: '0',
    };
    const res = await call(base, '/product', { method: 'POST', token: tokens.admin, json: form });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({
      category: 'BARS',
      subcategory: 'Back Bar',
      price: 10,
      quantity: 0,
    });
  });
});

describe('PUT /product/{id}', () => {
  it('changes the fields sent, keeps the rest, announces it', async () => {
    const sku = await createProduct();
    const res = await call(base, `/product/${sku}`, {
      method: 'PUT',
      token: tokens.admin,
      json: { id: sku, price: 99.99, subcategory: 'Back Bar' },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: sku, price: 99.99, quantity: 4, subcategory: 'Back Bar' });
    const events = await catalogueEvents(service.ctx.kafka, (all) =>
      eventsOf(
        ProductUpserted.type,
        sku,
      )(all).some((e) => (e.payload as { priceCents: number }).priceCents === 9999),
    );
    expect(eventsOf(ProductUpserted.type, sku)(events)).toHaveLength(2);
  });

  it('applies every form rule to the result', async () => {
    const sku = await createProduct();
    const put = (json: unknown) =>
      call(base, `/product/${sku}`, { method: 'PUT', token: tokens.admin, json });
    expect((await put({ category: 'LIGHTING' })).body.message).toBe(
      "The subcategory 'Bar Front' does not belong to the category 'LIGHTING'",
    );
    expect((await put({ name: ' ' })).body.message).toBe('Name: This field is required');
    expect((await put({ id: 'OTHER' })).body.message).toBe('The SKU of a product cannot be changed');
    expect((await put({})).body.message).toBe('Send at least one field to change');
    const moved = await put({ category: 'LIGHTING', subcategory: 'Lamps' });
    expect(moved.status).toBe(200);
    expect(
      (await call(base, '/product/NO-SUCH', { method: 'PUT', token: tokens.admin, json: { quantity: 1 } }))
        .status,
    ).toBe(404);
  });
});

describe('DELETE /product/{id}', () => {
  it('takes the product and its image files off the site, announces ProductDeleted; the SKU can be used again', async () => {
    const sku = await withImages(2);
    const files = (await call(base, `/product/${sku}/image`)).body.result.map((i: { url: string }) => i.url);
    expect(await objectStatus(files[0])).toBe(200);
    const res = await call(base, `/product/${sku}`, { method: 'DELETE', token: tokens.admin });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ id: sku });
    expect((await call(base, `/product/${sku}`)).status).toBe(404);
    expect((await call(base, `/product/${sku}/image`)).status).toBe(404);
    expect((await call(base, `/product?like=id:${sku}`)).body.result).toEqual([]);
    expect((await call(base, `/product/${sku}`, { method: 'DELETE', token: tokens.admin })).status).toBe(404);
    for (const url of files)
      await eventually(async () => ((await objectStatus(url)) === 404 ? true : undefined));
    const events = await catalogueEvents(
      service.ctx.kafka,
      (all) => eventsOf(ProductDeleted.type, sku)(all).length > 0,
    );
    expect(eventsOf(ProductDeleted.type, sku)(events)[0]?.payload).toEqual({ sku });

    const again = await call(base, '/product', {
      method: 'POST',
      token: tokens.admin,
      json: productForm(sku),
    });
    expect(again.status).toBe(201);
    expect(again.body.result.Images).toEqual([]);
  });
});

describe('POST /categories', () => {
  it('creates categories and subcategories as GET /categories lists them, and announces them', async () => {
    const cat = await call(base, '/categories', {
      method: 'POST',
      token: tokens.admin,
      json: { name: 'TABLES' },
    });
    expect(cat.status).toBe(201);
    expect(Object.keys(cat.body.result).sort()).toEqual(['Id', 'Name']);
    const sub = await call(base, '/categories', {
      method: 'POST',
      token: tokens.admin,
      json: { name: 'Round', isSubCategory: true, parent: cat.body.result.Id },
    });
    expect(sub.status).toBe(201);
    expect(sub.body.result).toEqual({
      Id: sub.body.result.Id,
      Name: 'Round',
      ParentRef: { value: cat.body.result.Id },
    });
    const tree = (await call(base, '/categories')).body.result;
    expect(tree.categories).toContainEqual(cat.body.result);
    expect(tree.subcategories).toContainEqual(sub.body.result);
    const events = await catalogueEvents(
      service.ctx.kafka,
      (all) => eventsOf(CategoryUpserted.type, sub.body.result.Id)(all).length > 0,
    );
    expect(eventsOf(CategoryUpserted.type, sub.body.result.Id)(events)[0]?.payload).toEqual({
      id: sub.body.result.Id,
      name: 'Round',
      parentId: cat.body.result.Id,
    });
    // A product can be filed there at once.
    const form = { ...productForm(), category: 'TABLES', subcategory: 'Round' };
    expect((await call(base, '/product', { method: 'POST', token: tokens.admin, json: form })).status).toBe(
      201,
    );
  });

  it.each([
    [{}, 400, 'Name: This field is required'],
    [{ name: 'Orphan', isSubCategory: true }, 400, 'Parent category: This field is required'],
    [{ name: 'Orphan', isSubCategory: true, parent: 'nope' }, 400, 'The parent category does not exist'],
    [{ name: 'bars' }, 409, "A category named 'bars' already exists"],
    [
      { name: 'Bar Front', isSubCategory: true, parent: 'BARS' },
      409,
      "The category 'BARS' already has a subcategory named 'Bar Front'",
    ],
    [{ name: 'X', parent: 'BARS' }, 400, 'Only a subcategory has a parent category'],
  ])('refuses %j', async (json, status, message) => {
    const res = await call(base, '/categories', { method: 'POST', token: tokens.admin, json });
    expect([res.status, res.body.message]).toEqual([status, message]);
  });
});

describe('images', () => {
  it('uploads through presigned URLs and attaches them; the first is primary; the storefront shows them', async () => {
    const sku = await createProduct();
    const uploaded = await upload(sku, [
      { name: 'front.png', bytes: 5_000 },
      { name: 'side.jpg', bytes: 99_999, type: 'image/jpeg' },
    ]);
    // A presigned POST: its signed policy holds the file under 100 KB (S3 refuses more before storing
    // it), fixes the key and the content type, and carries no checksum field (STACK-NOTES).
    const link = uploaded[0] as Link;
    expect(link.url).toBe(`${service.ctx.config.S3_ENDPOINT}/${service.ctx.config.S3_BUCKET}`);
    expect(link.fields).toMatchObject({ key: expect.stringMatching(/\.png$/), 'Content-Type': 'image/png' });
    expect(link.fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(link.imageUrl).toContain(link.fields.key);
    const policy = JSON.parse(Buffer.from(link.fields.Policy as string, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 99_999],
        ['eq', '$Content-Type', 'image/png'],
        { key: link.fields.key },
        { bucket: service.ctx.config.S3_BUCKET },
      ]),
    );
    expect(JSON.stringify(link.fields)).not.toMatch(/checksum/i);
    const expires = Date.parse(policy.expiration) - Date.now();
    expect(expires).toBeGreaterThan(0);
    expect(expires).toBeLessThanOrEqual(service.ctx.config.UPLOAD_URL_EXPIRES_S * 1000);
    // The browser's preflight for that POST from the site's origin is allowed by the bucket's CORS.
    const preflight = await fetch(link.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const res = await attach(
      sku,
      uploaded.map((u) => u.imageUrl),
    );
    expect(res.status).toBe(201);
    expect(res.body.result.map((i: { primary: boolean; type: string }) => [i.primary, i.type])).toEqual([
      [true, 'image/png'],
      [false, 'image/jpeg'],
    ]);
    expect(res.body.result.map((i: { url: string }) => i.url)).toEqual(uploaded.map((u) => u.imageUrl));
    const shown = (await call(base, `/product/${sku}`)).body.result[0].Images;
    expect(shown).toEqual(res.body.result);
    expect(await objectStatus(uploaded[1]?.imageUrl as string)).toBe(200);
    const events = await catalogueEvents(service.ctx.kafka, (all) =>
      eventsOf(
        ProductUpserted.type,
        sku,
      )(all).some((e) => (e.payload as { images: unknown[] }).images.length === 2),
    );
    expect(events.length).toBeGreaterThan(0);
  });

  it('refuses a file of 101 KB (400, the spec sentence) and removes it from S3; nothing of the request is attached', async () => {
    const sku = await createProduct();
    const uploaded = await upload(sku, [
      { name: 'ok.png', bytes: 1_000 },
      { name: 'huge.png', bytes: 101 * 1024 },
    ]);
    expect(await objectStatus(uploaded[1]?.imageUrl as string)).toBe(200);
    const res = await attach(
      sku,
      uploaded.map((u) => u.imageUrl),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Image huge.png has exceeded the max file size of 100kb');
    expect(await objectStatus(uploaded[1]?.imageUrl as string)).toBe(404);
    expect((await call(base, `/product/${sku}/image`)).body.result).toEqual([]);
    // The small one is still waiting and can be attached; the big one is gone for good.
    expect((await attach(sku, [uploaded[0]?.imageUrl as string])).status).toBe(201);
    expect((await attach(sku, [uploaded[1]?.imageUrl as string])).status).toBe(400);

    const two = await upload(sku, [
      { name: 'a.png', bytes: 100_000 },
      { name: 'b.png', bytes: 200_000 },
    ]);
    const refused = await attach(
      sku,
      two.map((u) => u.imageUrl),
    );
    expect(refused.body.message).toBe('Images a.png, b.png have exceeded the max file size of 100kb');
  });

  it('allows at most 5 images per product (409 with the spec sentences)', async () => {
    const sku = await withImages(4);
    const two = await call(base, `/product/${sku}/presignedUrl`, {
      method: 'POST',
      token: tokens.admin,
      json: [
        { id: 'a.png', category: 'BARS', type: 'image/png' },
        { id: 'b.png', category: 'BARS', type: 'image/png' },
      ],
    });
    expect(two.status).toBe(409);
    expect(two.body.message).toBe(
      'You attempted to upload 2 image(s) and only 1 more image(s) can be uploaded.',
    );
    // Two single uploads both fit on their own; the second attach would be the 6th image.
    const [fifth] = await upload(sku, [{ name: 'fifth.png', bytes: 100 }]);
    const [sixth] = await upload(sku, [{ name: 'sixth.png', bytes: 100 }]);
    expect((await attach(sku, [fifth?.imageUrl as string])).status).toBe(201);
    const over = await attach(sku, [sixth?.imageUrl as string]);
    expect(over.status).toBe(409);
    expect(over.body.message).toBe(
      'You have reached the max number of images for this product. To add a new image, please remove an existing image.',
    );
    expect((await call(base, `/product/${sku}/image`)).body.result).toHaveLength(5);
  });

  it('refuses types that are not images (400) and URLs not presigned for this product', async () => {
    const sku = await createProduct();
    for (const type of ['text/html', 'application/pdf', 'image/svg+xml']) {
      const res = await call(base, `/product/${sku}/presignedUrl`, {
        method: 'POST',
        token: tokens.admin,
        json: [{ id: 'x', category: 'BARS', type }],
      });
      expect([type, res.status]).toEqual([type, 400]);
    }
    const other = await createProduct();
    const [theirs] = await upload(other, [{ name: 'theirs.png', bytes: 100 }]);
    const res = await attach(sku, [theirs?.imageUrl as string]);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('was not uploaded for this product');
    expect((await attach(sku, ['https://evil.example/x.png'])).status).toBe(400);
    const [once] = await upload(sku, [{ name: 'once.png', bytes: 100 }]);
    expect((await attach(sku, [once?.imageUrl as string])).status).toBe(201);
    expect((await attach(sku, [once?.imageUrl as string])).status).toBe(400);
  });

  it('sets exactly one primary, deletes images with their files, and saves the placeholder after the last one', async () => {
    const sku = await withImages(3);
    const images = (await call(base, `/product/${sku}/image`)).body.result as {
      id: string;
      url: string;
      primary: boolean;
    }[];
    const [a, b, c] = images as [(typeof images)[0], (typeof images)[0], (typeof images)[0]];
    expect(a.primary).toBe(true);

    const set = await call(base, `/product/${sku}/image/${c.id}`, {
      method: 'PUT',
      token: tokens.admin,
      json: { primary: true },
    });
    expect(set.status).toBe(200);
    expect(set.body.result.map((i: { id: string; primary: boolean }) => [i.id, i.primary])).toEqual([
      [c.id, true],
      [a.id, false],
      [b.id, false],
    ]);
    expect(
      (
        await call(base, `/product/${sku}/image/${c.id}`, {
          method: 'PUT',
          token: tokens.admin,
          json: { primary: false },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(base, `/product/${sku}/image/nope`, {
          method: 'PUT',
          token: tokens.admin,
          json: { primary: true },
        })
      ).status,
    ).toBe(404);

    const del = (id: string) =>
      call(base, `/product/${sku}/image/${id}`, { method: 'DELETE', token: tokens.admin });
    const afterC = await del(c.id);
    expect(afterC.body.result.map((i: { id: string; primary: boolean }) => [i.id, i.primary])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
    await eventually(async () => ((await objectStatus(c.url)) === 404 ? true : undefined));
    expect(await objectStatus(a.url)).toBe(200);
    await del(a.id);
    const last = await del(b.id);
    expect(last.status).toBe(200);
    expect(last.body.result).toEqual([
      {
        id: 'placeholder',
        url: expect.stringMatching(/placeholder\.svg$/),
        primary: true,
        type: 'image/svg+xml',
      },
    ]);
    expect(await objectStatus(last.body.result[0].url)).toBe(200);
    expect((await call(base, `/product/${sku}`)).body.result[0].Images).toEqual(last.body.result);
    expect((await del('placeholder')).status).toBe(409);
    expect((await del(b.id)).status).toBe(404);

    // A new image replaces the placeholder and is primary; the product has room for 5 again.
    const fresh = await upload(
      sku,
      Array.from({ length: 5 }, (_, i) => ({ name: `n${i}.png`, bytes: 100 })),
    );
    const res = await attach(
      sku,
      fresh.map((f) => f.imageUrl),
    );
    expect(res.status).toBe(201);
    expect(res.body.result).toHaveLength(5);
    expect(res.body.result.filter((i: { primary: boolean }) => i.primary)).toHaveLength(1);
    expect(res.body.result.some((i: { id: string }) => i.id === 'placeholder')).toBe(false);
  });
});

describe('writes at the same time', () => {
  it('two admins creating one SKU: one 201, one 409', async () => {
    const form = productForm();
    const answers = await Promise.all(
      [tokens.admin, tokens.superadmin].map((token) =>
        call(base, '/product', { method: 'POST', token, json: form }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('two attaches of 3 images each to an empty product: one attaches, the other gets the 409 (never 6)', async () => {
    const sku = await createProduct();
    const three = (p: string) => Array.from({ length: 3 }, (_, i) => ({ name: `${p}${i}.png`, bytes: 100 }));
    const [a, b] = await Promise.all([upload(sku, three('a')), upload(sku, three('b'))]);
    const answers = await Promise.all(
      [a, b].map((links) => attach(sku, links?.map((l) => l.imageUrl) ?? [])),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)?.body.message).toBe(
      'You attempted to upload 3 image(s) and only 2 more image(s) can be uploaded.',
    );
    expect((await call(base, `/product/${sku}/image`)).body.result).toHaveLength(3);
  });

  it('edits and image changes at once all land (each write guarded by the revision it read)', async () => {
    const sku = await withImages(2);
    const images = (await call(base, `/product/${sku}/image`)).body.result as { id: string }[];
    const answers = await Promise.all([
      call(base, `/product/${sku}`, { method: 'PUT', token: tokens.admin, json: { quantity: 9 } }),
      call(base, `/product/${sku}`, { method: 'PUT', token: tokens.superadmin, json: { name: 'Renamed' } }),
      call(base, `/product/${sku}/image/${images[1]?.id}`, {
        method: 'PUT',
        token: tokens.admin,
        json: { primary: true },
      }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const shown = (await call(base, `/product/${sku}`, { token: tokens.admin })).body.result[0];
    expect(shown).toMatchObject({ quantity: 9, name: 'Renamed' });
    expect(shown.Images[0]).toMatchObject({ id: images[1]?.id, primary: true });
  });

  it('changes a product stored before revisions existed', async () => {
    const sku = await createProduct();
    await service.ctx.products.updateOne({ _id: sku }, { $unset: { revision: 1, deleted: 1 } });
    const res = await call(base, `/product/${sku}`, {
      method: 'PUT',
      token: tokens.admin,
      json: { quantity: 7 },
    });
    expect(res.status).toBe(200);
    expect((await service.ctx.products.findById(sku).lean())?.revision).toBe(1);
    expect((await call(base, `/product/${sku}`, { method: 'DELETE', token: tokens.admin })).status).toBe(200);
  });
});

describe('what the stored object says decides', () => {
  const presign = async (sku: string, name: string) =>
    (
      await call(base, `/product/${sku}/presignedUrl`, {
        method: 'POST',
        token: tokens.admin,
        json: [{ id: name, category: 'BARS', type: 'image/png' }],
      })
    ).body.result[0] as Link;

  it('a file not uploaded yet is refused (400) and can be attached once it is', async () => {
    const sku = await createProduct();
    const link = await presign(sku, 'later.png');
    const early = await attach(sku, [link.imageUrl]);
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('The image later.png has not been uploaded yet');
    expect((await postFile(link, 'png')).status).toBe(204);
    expect((await attach(sku, [link.imageUrl])).status).toBe(201);
  });

  it('a file stored with another content type than the one signed is refused and removed', async () => {
    const sku = await createProduct();
    const link = await presign(sku, 'page.png');
    // Real S3 refuses this POST (the policy fixes the content type); the local emulator checks no policy.
    expect((await postFile(link, '<script>1</script>', { 'Content-Type': 'text/html' })).status).toBe(204);
    expect(await objectStatus(link.imageUrl)).toBe(200);
    const res = await attach(sku, [link.imageUrl]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The image page.png was not stored with the content type it was signed for',
    );
    expect(await objectStatus(link.imageUrl)).toBe(404);
  });
});

describe("the storefront admin client's shapes", () => {
  it("presigns files named `name` (not `id`) and attaches the file's URL under the upload endpoint", async () => {
    const sku = await createProduct();
    const presigned = await call(base, `/product/${sku}/presignedUrl`, {
      method: 'POST',
      token: tokens.admin,
      json: [{ type: 'image/png', name: 'front.png' }],
    });
    expect(presigned.status).toBe(200);
    const link = (presigned.body.result as Link[])[0] as Link;
    expect(link.id).toBe('front.png');
    expect((await postFile(link, 'png')).status).toBe(204);
    // The file's own URL under the upload endpoint is attachable too.
    const res = await attach(sku, [`${link.url}/${link.fields.key}`]);
    expect(res.status).toBe(201);
    expect(res.body.result[0]).toMatchObject({ url: link.imageUrl, primary: true });
    const nameless = await call(base, `/product/${sku}/presignedUrl`, {
      method: 'POST',
      token: tokens.admin,
      json: [{ type: 'image/png' }],
    });
    expect([nameless.status, nameless.body.message]).toEqual([
      400,
      "Each file needs its name ('id' or 'name')",
    ]);
  });
});

describe('API documentation', () => {
  it('lists every staff product, category and image call behind the session', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const calls: [string, string][] = [
      ['/product', 'post'],
      ['/product/{id}', 'put'],
      ['/product/{id}', 'delete'],
      ['/categories', 'post'],
      ['/categories/{id}/turnaround', 'get'],
      ['/categories/{id}/turnaround', 'put'],
      ['/product/{id}/presignedUrl', 'post'],
      ['/product/{id}/image', 'post'],
      ['/product/{id}/image/{imageId}', 'put'],
      ['/product/{id}/image/{imageId}', 'delete'],
    ];
    const found = calls.map(([path, method]) => ({
      call: `${method} ${path}`,
      secured: Boolean(doc.paths[path]?.[method]?.security),
    }));
    expect(found).toEqual(calls.map(([path, method]) => ({ call: `${method} ${path}`, secured: true })));
  });
});
