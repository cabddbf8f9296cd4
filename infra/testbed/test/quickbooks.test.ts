/**
 * QuickBooks follows the staff's product calls from the catalogue's events alone: the real
 * accounting-sync service and the QuickBooks emulator (a fresh company of this file). A created
 * product becomes an Item (and the catalogue learns its QuickBooks id), a change updates it, a
 * deletion sets it inactive there.
 */
import {
  connect,
  newRealm,
  type QboRecord,
  qboRecords,
  type Sync,
  startSync,
  stopAndClean as stopSync,
} from '@decor/accounting-sync/testing';
import { type Catalogue, call, startCatalogue, stopAndClean, tokenFor } from '@decor/catalogue/testing';
import { eventually } from '@decor/kit/testing';

let catalogue: Catalogue;
let sync: Sync;
let realmId: string;
let staff: string;

beforeAll(async () => {
  catalogue = await startCatalogue({ DEMO_CATALOGUE: 'false' });
  sync = await startSync();
  realmId = await newRealm();
  expect((await connect(sync, realmId)).status).toBe(200);
  staff = tokenFor(catalogue, 'admin');
});

afterAll(async () => {
  await stopSync(sync);
  await stopAndClean(catalogue);
});

const item = async (sku: string, test: (i: QboRecord) => boolean) =>
  eventually(
    async () => (await qboRecords(realmId, 'Item')).find((i) => i.Sku === sku && test(i)),
    30_000,
    `item ${sku} in QuickBooks`,
  );

it('creates, updates and deactivates the QuickBooks item of a product', async () => {
  const post = (path: string, json: unknown) =>
    call(catalogue.url, path, { method: 'POST', token: staff, json });
  expect((await post('/categories', { name: 'BARS' })).status).toBe(201);
  expect((await post('/categories', { name: 'Bar Front', isSubCategory: true, parent: 'BARS' })).status).toBe(
    201,
  );
  const form = {
    id: 'QB-1',
    name: 'Bar',
    description: 'A bar',
    category: 'BARS',
    subcategory: 'Bar Front',
    price: 80,
    quantity: 2,
  };
  expect((await post('/product', form)).status).toBe(201);

  const created = await item('QB-1', (i) => i.UnitPrice === 80);
  expect(created).toMatchObject({ Name: 'QB-1', Active: true, Type: 'Service' });
  // The catalogue records the item's id from accounting-sync's report.
  await eventually(async () => {
    const p = (await call(catalogue.url, '/product/QB-1', { token: staff })).body.result[0];
    return p.qboId === String(created.Id) ? p : undefined;
  });

  const put = await call(catalogue.url, '/product/QB-1', {
    method: 'PUT',
    token: staff,
    json: { price: 95.5 },
  });
  expect(put.status).toBe(200);
  await item('QB-1', (i) => i.UnitPrice === 95.5);

  expect((await call(catalogue.url, '/product/QB-1', { method: 'DELETE', token: staff })).status).toBe(200);
  const gone = await item('QB-1', (i) => i.Active === false);
  expect(gone.Id).toBe(created.Id);
});
