/** The emulator's demo company: every case of the import rules (spec §5), and adding records is idempotent. */
import { demoCompany, demoRecords } from '../src/demo-company';

type Row = Record<string, unknown> & { DisplayName: string; Id: string };

describe('the demo company', () => {
  it('has importable companies, companies without a name, and customers with and without an e-mail', () => {
    const company = demoCompany();
    const customers = Object.values(company.records.Customer) as Row[];
    const top = customers.filter((c) => !c.Job);
    const jobs = customers.filter((c) => c.Job);
    expect(top.filter((c) => c.CompanyName).map((c) => c.DisplayName)).toEqual(
      expect.arrayContaining(['Sunset Gala Planners', 'Blue Harbor Weddings', 'Harbor Lights Events']),
    );
    expect(top.filter((c) => !c.CompanyName).map((c) => c.DisplayName)).toEqual(
      expect.arrayContaining(['Oak Hollow Barn', 'Ralph Nguyen']),
    );
    expect(jobs.filter((c) => !c.PrimaryEmailAddr).map((c) => c.FullyQualifiedName)).toEqual(
      expect.arrayContaining(['Blue Harbor Weddings:Lena Brooks', 'Magnolia Corporate Events:Omar Haddad']),
    );
    expect(jobs.filter((c) => c.PrimaryEmailAddr).length).toBeGreaterThanOrEqual(5);
  });

  it('adds only what is missing when run again (an older data file gets the new records)', () => {
    const company = demoCompany();
    const before = JSON.stringify(company.records);
    demoRecords(company);
    expect(JSON.stringify(company.records)).toBe(before);

    const lena = Object.values(company.records.Customer).find((c) => c.DisplayName === 'Lena Brooks') as Row;
    delete company.records.Customer[lena.Id];
    demoRecords(company);
    const again = Object.values(company.records.Customer).filter((c) => c.DisplayName === 'Lena Brooks');
    expect(again).toHaveLength(1);
    expect((again[0] as Row).FullyQualifiedName).toBe('Blue Harbor Weddings:Lena Brooks');
    expect(Object.values(company.records.Customer)).toHaveLength(
      Object.keys(JSON.parse(before).Customer).length,
    );
  });
});
