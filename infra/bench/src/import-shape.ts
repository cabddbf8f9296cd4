/**
 * The QuickBooks book the import part seeds and the searches it makes, at any scale: the bench's
 * (250 companies × 19 customers) and the test's smaller one (infra/bench/test/import-searches.test.ts)
 * seed the same shape and make the same kind of searches, each with the total it must answer.
 */

export interface ImportShape {
  companies: number;
  perCompany: number;
}

export const BENCH_SHAPE: ImportShape = { companies: 250, perCompany: 19 };

const FIRST = ['Ava', 'Liam', 'Maya', 'Noah', 'Zoe', 'Omar', 'Iris', 'Theo', 'Lena', 'Ezra'];
const co = (n: number) => String(n).padStart(3, '0');

/** Companies ('Import Co 001', office@co001.example): the first of the two bulk creates. */
export function importCompanies(shape: ImportShape): Array<Record<string, unknown>> {
  return Array.from({ length: shape.companies }, (_, i) => ({
    DisplayName: `Import Co ${co(i + 1)}`,
    CompanyName: `Import Co ${co(i + 1)}`,
    PrimaryEmailAddr: { Address: `office@co${co(i + 1)}.example` },
  }));
}

/** The customers under the companies' QuickBooks ids ('Ava Import 001-01', p001-01@co001.example). */
export function importCustomers(shape: ImportShape, parentIds: string[]): Array<Record<string, unknown>> {
  return parentIds.flatMap((parent, i) =>
    Array.from({ length: shape.perCompany }, (_, j) => {
      const n = `${co(i + 1)}-${String(j + 1).padStart(2, '0')}`;
      return {
        DisplayName: `${FIRST[j % FIRST.length]} Import ${n}`,
        GivenName: FIRST[j % FIRST.length],
        FamilyName: `Import ${n}`,
        Job: true,
        ParentRef: { value: parent },
        // Every tenth without an e-mail: not selectable, as in a real book.
        ...(j % 10 === 9 ? {} : { PrimaryEmailAddr: { Address: `p${n}@co${co(i + 1)}.example` } }),
      };
    }),
  );
}

/** Seeds the shape into `realmId` (the emulator's bulk control call); the number of Customers. */
export async function seedImportBook(
  emulatorUrl: string,
  realmId: string,
  shape: ImportShape,
): Promise<number> {
  const post = async (records: unknown[]) => {
    const res = await fetch(`${emulatorUrl}/__emulator/realms/${realmId}/records/Customer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ records }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`seeding Customers answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as { ids: string[] };
  };
  const { ids } = await post(importCompanies(shape));
  await post(importCustomers(shape, ids));
  return shape.companies * (1 + shape.perCompany);
}

/**
 * Words as staff type them, each with the total it must find: a company (itself and its customers),
 * a first name across companies, one e-mail, a name part. At the bench's scale: companies 042 and 117.
 */
export function importSearches(shape: ImportShape): Array<{ search: string; total: number }> {
  const first = co(Math.ceil((shape.companies * 42) / 250));
  const second = co(Math.ceil((shape.companies * 117) / 250));
  const namesake = (name: string) =>
    Array.from({ length: shape.perCompany }, (_, j) => FIRST[j % FIRST.length]).filter((f) => f === name)
      .length;
  return [
    { search: `import co ${first}`, total: 1 + shape.perCompany },
    { search: 'zoe', total: shape.companies * namesake('Zoe') },
    { search: `p${second}-03@co${second}`, total: 1 },
    { search: `liam import ${second}`, total: namesake('Liam') },
  ];
}
