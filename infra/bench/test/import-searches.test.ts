/**
 * The searches `npm run bench -- --only import` makes, as a test: the real accounting-sync service
 * connected to the QuickBooks emulator, a book of the bench's shape scaled down (30 companies × 19
 * customers), and the same kind of words, each answered with the total the bench checks.
 */
import {
  connect,
  emulatorCall,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from '@decor/accounting-sync/testing';
import { RUN_ID } from '@decor/kit/testing';
import { testEndpoints } from '@decor/stack';
import { type ImportShape, importSearches, seedImportBook } from '../src/import-shape';

const SHAPE: ImportShape = { companies: 30, perCompany: 19 };

let sync: Sync;
let token: string;

const listing = async (query: string) => {
  const res = await fetch(`${sync.url}/qbo/users?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { result?: { companies: unknown[]; customers: unknown[] } };
  if (res.status !== 200 || !body.result) throw new Error(`GET /qbo/users?${query}: ${res.status}`);
  return {
    total: Number(res.headers.get('total_count')),
    rows: body.result.companies.length + body.result.customers.length,
  };
};

beforeAll(async () => {
  sync = await startSync();
  const { realmId } = await emulatorCall<{ realmId: string }>('/__emulator/companies', {
    method: 'POST',
    json: { name: `Import searches ${RUN_ID}` },
  });
  await seedImportBook(testEndpoints().qbo.url, realmId, SHAPE);
  token = staffToken(sync);
  const connected = await connect(sync, realmId, token);
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}`);
});
afterAll(() => stopAndClean(sync));

describe("the import bench's searches", () => {
  it('lists the whole seeded book', async () => {
    const all = await listing('limit=20');
    expect(all).toEqual({ total: SHAPE.companies * (1 + SHAPE.perCompany), rows: 20 });
  });

  it.each(importSearches(SHAPE))('"$search" finds $total', async ({ search, total }) => {
    const found = await listing(`hideOnSite=true&offset=0&limit=20&search=${encodeURIComponent(search)}`);
    expect(found).toEqual({ total, rows: Math.min(20, total) });
  });

  it("at the bench's scale the words are the bench's own", () => {
    expect(importSearches({ companies: 250, perCompany: 19 })).toEqual([
      { search: 'import co 042', total: 20 },
      { search: 'zoe', total: 500 },
      { search: 'p117-03@co117', total: 1 },
      { search: 'liam import 117', total: 2 },
    ]);
  });
});
