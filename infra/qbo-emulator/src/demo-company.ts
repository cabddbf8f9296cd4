/**
 * The demo company: records the site does not have, so a first sync has something to reconcile
 * and the admin's Import User dialog (spec §5 import rules) has every case to walk:
 * - companies with a CompanyName (importable) and two without one ('Ralph Nguyen', a person at the
 *   top level, and 'Oak Hollow Barn'): not selectable;
 * - customers (Jobs) with an e-mail whose company is not on the site yet ('Please import the parent
 *   company first' until it is imported), and two without an e-mail ('Lena Brooks', 'Omar Haddad'):
 *   not selectable, update the user in QuickBooks.
 * The site's own demo company ('Evergreen Weddings', services/user/src/demo-data.ts) is left for
 * the sync to create.
 */
import { createRecord } from './entities';
import { type CompanyState, newCompany, type Rec } from './store';

export const DEMO_REALM_ID = '9130357766813086';
export const DEMO_COMPANY_NAME = 'Decor Rentals Demo Co';

const addr = (Line1: string, City: string, CountrySubDivisionCode: string, PostalCode: string) => ({
  Line1,
  City,
  CountrySubDivisionCode,
  PostalCode,
  Country: 'US',
});

const companies: Rec[] = [
  {
    DisplayName: 'Sunset Gala Planners',
    CompanyName: 'Sunset Gala Planners',
    BillAddr: addr('410 Congress Ave', 'Austin', 'TX', '78701'),
    PrimaryPhone: { FreeFormNumber: '(512) 555-0187' },
    PrimaryEmailAddr: { Address: 'office@sunsetgala.example' },
  },
  {
    DisplayName: 'Blue Harbor Weddings',
    CompanyName: 'Blue Harbor Weddings',
    BillAddr: addr('88 Wharf St', 'Seattle', 'WA', '98101'),
    PrimaryPhone: { FreeFormNumber: '(206) 555-0134' },
  },
  {
    DisplayName: 'Magnolia Corporate Events',
    CompanyName: 'Magnolia Corporate Events',
    BillAddr: addr('1200 Peachtree St NE', 'Atlanta', 'GA', '30309'),
    PrimaryPhone: { FreeFormNumber: '(404) 555-0159' },
  },
  {
    DisplayName: 'Harbor Lights Events',
    CompanyName: 'Harbor Lights Events',
    BillAddr: addr('5 Lighthouse Rd', 'San Diego', 'CA', '92106'),
    PrimaryPhone: { FreeFormNumber: '(619) 555-0110' },
  },
  // A top-level customer with no CompanyName: a company without a name (not importable).
  {
    DisplayName: 'Oak Hollow Barn',
    BillAddr: addr('17 Mill Pond Rd', 'Asheville', 'NC', '28801'),
    PrimaryPhone: { FreeFormNumber: '(828) 555-0123' },
    PrimaryEmailAddr: { Address: 'bookings@oakhollow.example' },
  },
];

/** [parent DisplayName or null, given, family, e-mail or null] */
const people: [string | null, string, string, string | null][] = [
  ['Sunset Gala Planners', 'Ava', 'Thompson', 'ava.thompson@sunsetgala.example'],
  ['Sunset Gala Planners', 'Marcus', 'Lee', 'marcus.lee@sunsetgala.example'],
  ['Blue Harbor Weddings', 'Chloe', 'Martinez', 'chloe@blueharbor.example'],
  ['Blue Harbor Weddings', 'Daniel', 'Okafor', 'daniel@blueharbor.example'],
  ['Magnolia Corporate Events', 'Priya', 'Shah', 'priya.shah@magnoliaevents.example'],
  [null, 'Ralph', 'Nguyen', null],
  ['Harbor Lights Events', 'Nina', 'Patel', 'nina@harborlights.example'],
  // Customers without an e-mail: the import dialog says to update them in QuickBooks.
  ['Blue Harbor Weddings', 'Lena', 'Brooks', null],
  ['Magnolia Corporate Events', 'Omar', 'Haddad', null],
];

/** [name, parent category or null] */
const categories: [string, string | null][] = [
  ['BARS', null],
  ['Bar Front', 'BARS'],
  ['Back Bar', 'BARS'],
  ['TABLES', null],
  ['Cocktail Tables', 'TABLES'],
  ['Farm Tables', 'TABLES'],
];

const services: Rec[] = [
  { Name: 'Delivery', Type: 'Service', UnitPrice: 150, Description: 'Delivery and pick-up', Taxable: false },
  {
    Name: 'Setup and Strike',
    Type: 'Service',
    UnitPrice: 95,
    Description: 'On-site setup and strike, per hour',
  },
  { Name: 'Design Consultation', Type: 'Service', UnitPrice: 200, Description: 'Event design consultation' },
  { Name: 'Candle Pack', Type: 'NonInventory', UnitPrice: 24, Description: 'Pack of 24 unscented votives' },
];

/**
 * Adds the demo records the company lacks (by DisplayName / Name), so it is safe to run again: a
 * demo company kept in an older data file gets the records added since.
 */
export function demoRecords(company: CompanyState): void {
  const byName = (entity: 'Customer' | 'Item', key: 'DisplayName' | 'Name', name: string) =>
    Object.values(company.records[entity]).find(
      (r) => String(r[key] ?? '').toLowerCase() === name.toLowerCase(),
    );
  const customer = (rec: Rec) =>
    String(
      (byName('Customer', 'DisplayName', String(rec.DisplayName)) ?? createRecord(company, 'Customer', rec))
        .Id,
    );
  const item = (rec: Rec) =>
    String((byName('Item', 'Name', String(rec.Name)) ?? createRecord(company, 'Item', rec)).Id);

  const customerIds = new Map<string, string>();
  for (const c of companies) customerIds.set(String(c.DisplayName), customer(c));
  for (const [parent, GivenName, FamilyName, email] of people) {
    customer({
      GivenName,
      FamilyName,
      DisplayName: `${GivenName} ${FamilyName}`,
      ...(parent ? { Job: true, ParentRef: { value: customerIds.get(parent) }, BillWithParent: true } : {}),
      ...(email ? { PrimaryEmailAddr: { Address: email } } : {}),
      PrimaryPhone: { FreeFormNumber: '(555) 555-0100' },
    });
  }
  const itemIds = new Map<string, string>();
  for (const [Name, parent] of categories) {
    itemIds.set(
      Name,
      item({
        Name,
        Type: 'Category',
        ...(parent ? { SubItem: true, ParentRef: { value: itemIds.get(parent) } } : {}),
      }),
    );
  }
  for (const s of services) item({ ...s, IncomeAccountRef: { value: '1' } });
}

export function demoCompany(): CompanyState {
  const company = newCompany(DEMO_REALM_ID, DEMO_COMPANY_NAME);
  demoRecords(company);
  return company;
}
