/**
 * Turnaround buffers in the catalogue (issue 15): a product's own and its category's, set by staff,
 * stored, shown to staff only and announced (ProductUpserted / CategoryUpserted carry `turnaround`).
 */
import { CategoryUpserted, type EventEnvelope, ProductUpserted } from '@decor/contracts';
import { type Catalogue, call, catalogueEvents, startCatalogue, stopAndClean, tokenFor } from './support';

let service: Catalogue;
let base: string;
let staff: string;
let customer: string;
let linens: string;
let napkins: string;

beforeAll(async () => {
  service = await startCatalogue({ DEMO_CATALOGUE: 'false' });
  base = service.url;
  staff = tokenFor(service, 'admin');
  customer = tokenFor(service, 'customer');
  const post = (json: unknown) => call(base, '/categories', { method: 'POST', token: staff, json });
  linens = (await post({ name: 'LINENS' })).body.result.Id;
  napkins = (await post({ name: 'Napkins', isSubCategory: true, parent: linens })).body.result.Id;
});

afterAll(() => stopAndClean(service));

const form = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'Sage Napkin',
  description: 'Linen',
  category: 'LINENS',
  subcategory: 'Napkins',
  price: 1.25,
  quantity: 100,
  ...extra,
});

/** The payloads of one aggregate's events of one type, read until `enough` of them are out. */
async function payloads(type: string, id: string, enough: number) {
  const mine = (all: EventEnvelope[]) => all.filter((e) => e.type === type && e.aggregateId === id);
  const events = await catalogueEvents(service.ctx.kafka, (all) => mine(all).length >= enough);
  return mine(events).map((e) => e.payload as { turnaround?: unknown });
}

describe("a product's own buffer", () => {
  it('is saved with the product, shown to staff only, announced; empty goes back to inheriting', async () => {
    const created = await call(base, '/product', {
      method: 'POST',
      token: staff,
      json: form('NAP-1', { turnaroundBefore: '', turnaroundAfter: '2' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ turnaroundBefore: null, turnaroundAfter: 2 });
    expect((await call(base, '/product/NAP-1', { token: staff })).body.result[0]).toMatchObject({
      turnaroundBefore: null,
      turnaroundAfter: 2,
    });
    expect((await call(base, '/product/NAP-1', { token: customer })).body.result[0]).not.toHaveProperty(
      'turnaroundAfter',
    );

    // A change of another field keeps the buffer; sending it empty (or null) clears that side.
    const put = (json: unknown) => call(base, '/product/NAP-1', { method: 'PUT', token: staff, json });
    expect((await put({ quantity: 90 })).body.result).toMatchObject({ turnaroundAfter: 2 });
    expect((await put({ turnaroundBefore: 0 })).body.result).toMatchObject({
      turnaroundBefore: 0,
      turnaroundAfter: 2,
    });
    expect((await put({ turnaroundBefore: null, turnaroundAfter: '' })).body.result).toMatchObject({
      turnaroundBefore: null,
      turnaroundAfter: null,
    });

    const events = await payloads(ProductUpserted.type, 'NAP-1', 4);
    expect(events.map((p) => p.turnaround)).toEqual([
      { after: 2 },
      { after: 2 },
      { before: 0, after: 2 },
      undefined,
    ]);
    expect(events[3]).not.toHaveProperty('turnaround');
  });

  it('sending the same buffer again changes nothing and announces nothing', async () => {
    await call(base, '/product', {
      method: 'POST',
      token: staff,
      json: form('NAP-2', { turnaroundAfter: 3 }),
    });
    const again = await call(base, '/product/NAP-2', {
      method: 'PUT',
      token: staff,
      json: { turnaroundAfter: '3', turnaroundBefore: '' },
    });
    expect(again.status).toBe(200);
    expect((await service.ctx.products.findById('NAP-2').lean())?.revision).toBe(1);
  });

  it.each([
    [{ turnaroundBefore: 31 }, 'Turnaround days before must be at most 30'],
    [{ turnaroundAfter: -1 }, 'Turnaround days after must be 0 or more'],
    [{ turnaroundAfter: '1.5' }, 'Turnaround days after must be a whole number'],
    [{ turnaroundBefore: 'two' }, 'Turnaround days before must be a number'],
  ])('refuses %j (400), on creation and on change', async (change, message) => {
    const created = await call(base, '/product', {
      method: 'POST',
      token: staff,
      json: form('NAP-X', change),
    });
    expect([created.status, created.body.message]).toEqual([400, message]);
    const changed = await call(base, '/product/NAP-2', { method: 'PUT', token: staff, json: change });
    expect([changed.status, changed.body.message]).toEqual([400, message]);
  });
});

describe("a category's buffer", () => {
  const path = (id: string) => `/categories/${id}/turnaround`;
  const put = (id: string, json: unknown, token = staff) =>
    call(base, path(id), { method: 'PUT', token, json });

  it('is set by staff, read back, announced with the category; the body replaces it', async () => {
    expect((await call(base, path(linens), { token: staff })).body.result).toEqual({
      Id: linens,
      Name: 'LINENS',
      before: null,
      after: null,
    });
    const set = await put(linens, { after: 2 });
    expect(set.status).toBe(200);
    expect(set.body.result).toEqual({ Id: linens, Name: 'LINENS', before: null, after: 2 });
    expect((await call(base, path(linens), { token: staff })).body.result).toMatchObject({ after: 2 });
    expect((await put(linens, { before: '0', after: null })).body.result).toMatchObject({
      before: 0,
      after: null,
    });
    expect((await put(linens, {})).body.result).toMatchObject({ before: null, after: null });

    const events = await payloads(CategoryUpserted.type, linens, 4);
    expect(events).toEqual([
      { id: linens, name: 'LINENS' },
      { id: linens, name: 'LINENS', turnaround: { after: 2 } },
      { id: linens, name: 'LINENS', turnaround: { before: 0 } },
      { id: linens, name: 'LINENS' },
    ]);
    // The public tree is unchanged.
    expect((await call(base, '/categories')).body.result.categories).toEqual([
      { Id: linens, Name: 'LINENS' },
    ]);
  });

  it.each([
    [{ before: 45 }, 'Turnaround days before must be at most 30'],
    [{ after: 'x' }, 'Turnaround days after must be a number'],
    [{ days: 2 }, "Unknown field 'days'"],
  ])('refuses %j (400)', async (json, message) => {
    const res = await put(linens, json);
    expect([res.status, res.body.message]).toEqual([400, message]);
  });

  it('belongs to top-level categories only; an unknown category is a 404', async () => {
    const sub = await put(napkins, { after: 2 });
    expect([sub.status, sub.body.message]).toEqual([
      400,
      'Only a top-level category has a turnaround buffer; its subcategories share it',
    ]);
    expect((await put('nope', { after: 2 })).status).toBe(404);
    expect((await call(base, path('nope'), { token: staff })).body).toEqual({
      message: 'Category not found',
    });
  });

  it('is for staff: visitors 401, customers 403', async () => {
    expect((await put(linens, { after: 1 }, '')).status).toBe(401);
    expect((await put(linens, { after: 1 }, customer)).status).toBe(403);
    expect((await call(base, path(linens))).status).toBe(401);
    expect((await call(base, path(linens), { token: customer })).status).toBe(403);
  });
});
