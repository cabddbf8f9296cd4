/** The import listing's rules (spec §5), pure: companies vs customers, marks, and why not selectable. */
import { IMPORT_TEXTS } from '@decor/contracts';
import { importListing, type QboCustomerRow, type SiteRecordRef } from '../src/domain/import-listing';

const company = (Id: string, DisplayName: string, extra: Partial<QboCustomerRow> = {}): QboCustomerRow => ({
  Id,
  DisplayName,
  CompanyName: DisplayName,
  ...extra,
});
const job = (Id: string, DisplayName: string, parent: string, email: string | null): QboCustomerRow => ({
  Id,
  DisplayName,
  GivenName: DisplayName.split(' ')[0],
  FamilyName: DisplayName.split(' ')[1],
  Job: true,
  ParentRef: { value: parent },
  ...(email ? { PrimaryEmailAddr: { Address: email } } : {}),
});
const site = (entries: Array<[string, SiteRecordRef]>) => new Map(entries);

describe('importListing', () => {
  it('splits top-level Customers (companies) from Jobs (customers), sorted by display name', () => {
    const listing = importListing(
      [
        company('2', 'Blue Harbor', {
          PrimaryEmailAddr: { Address: ' office@blue.example ' },
          PrimaryPhone: { FreeFormNumber: '206' },
          BillAddr: {
            Line1: '88 Wharf St',
            City: 'Seattle',
            CountrySubDivisionCode: 'WA',
            PostalCode: '98101',
          },
        }),
        company('1', 'alpine Events'),
        job('3', 'Chloe Martinez', '2', 'chloe@blue.example'),
      ],
      site([]),
    );
    expect(listing.companies.map((c) => c.displayName)).toEqual(['alpine Events', 'Blue Harbor']);
    expect(listing.companies[1]).toEqual({
      qboId: '2',
      displayName: 'Blue Harbor',
      name: 'Blue Harbor',
      email: 'office@blue.example',
      phone: '206',
      street: '88 Wharf St',
      city: 'Seattle',
      state: 'WA',
      zipCode: '98101',
      onSite: false,
      siteId: null,
      selectable: true,
      reason: null,
    });
    expect(listing.customers).toEqual([
      {
        qboId: '3',
        displayName: 'Chloe Martinez',
        firstName: 'Chloe',
        lastName: 'Martinez',
        email: 'chloe@blue.example',
        phone: null,
        company: 'Blue Harbor',
        parentQboId: '2',
        parentName: 'Blue Harbor',
        parentOnSite: false,
        parentSiteId: null,
        street: null,
        city: null,
        state: null,
        zipCode: null,
        onSite: false,
        siteId: null,
        selectable: false,
        reason: IMPORT_TEXTS.parentNotOnSite,
      },
    ]);
    expect(IMPORT_TEXTS.parentNotOnSite).toBe('Please import the parent company first');
  });

  it('marks records already on the site and gives a customer its parent company id on the site', () => {
    const listing = importListing(
      [
        company('1', 'Sunset'),
        job('2', 'Ava Thompson', '1', 'ava@s.example'),
        job('3', 'Marcus Lee', '1', 'm@s.example'),
      ],
      site([
        ['1', { kind: 'company', recordId: 'site-company' }],
        ['3', { kind: 'customer', recordId: 'site-marcus' }],
      ]),
    );
    expect(listing.companies[0]).toMatchObject({
      onSite: true,
      siteId: 'site-company',
      selectable: false,
      reason: IMPORT_TEXTS.onSite,
    });
    const [ava, marcus] = listing.customers;
    expect(ava).toMatchObject({
      parentOnSite: true,
      parentSiteId: 'site-company',
      onSite: false,
      selectable: true,
      reason: null,
    });
    expect(marcus).toMatchObject({
      onSite: true,
      siteId: 'site-marcus',
      selectable: false,
      reason: IMPORT_TEXTS.onSite,
    });
  });

  it('a customer without an e-mail is not selectable, whether or not its parent is on the site', () => {
    const rows = [
      company('1', 'Sunset'),
      job('2', 'Lena Brooks', '1', null),
      job('3', 'Omar Haddad', '1', '  '),
    ];
    for (const onSite of [false, true]) {
      const listing = importListing(rows, site(onSite ? [['1', { kind: 'company', recordId: 'c1' }]] : []));
      for (const customer of listing.customers)
        expect(customer).toMatchObject({
          email: null,
          parentOnSite: onSite,
          selectable: false,
          reason: IMPORT_TEXTS.customerWithoutEmail,
        });
    }
    expect(IMPORT_TEXTS.customerWithoutEmail).toMatch(/update the user in QuickBooks/);
  });

  it('a company without a CompanyName is not selectable', () => {
    const listing = importListing(
      [
        { Id: '1', DisplayName: 'Ralph Nguyen', GivenName: 'Ralph' },
        company('2', 'Named', { CompanyName: ' ' }),
      ],
      site([]),
    );
    for (const c of listing.companies)
      expect(c).toMatchObject({ name: null, selectable: false, reason: IMPORT_TEXTS.companyWithoutName });
  });

  it('a parent held by a site customer (not a company) does not count as the parent company on the site', () => {
    const listing = importListing(
      [{ Id: '1', DisplayName: 'Solo', CompanyName: 'Solo' }, job('2', 'Kid One', '1', 'k@x.example')],
      site([['1', { kind: 'customer', recordId: 'site-user' }]]),
    );
    expect(listing.customers[0]).toMatchObject({
      parentOnSite: false,
      parentSiteId: null,
      reason: IMPORT_TEXTS.parentNotOnSite,
    });
  });

  it('a Job of a Job belongs to the top-level company; a parent QuickBooks did not list keeps its ref name', () => {
    const listing = importListing(
      [
        company('1', 'Top Co'),
        job('2', 'Middle Job', '1', 'mid@x.example'),
        job('3', 'Deep Job', '2', 'deep@x.example'),
        { ...job('4', 'Orphan Job', '99', 'o@x.example'), ParentRef: { value: '99', name: 'Gone Co' } },
        // A cycle (bad data) must not hang the walk.
        job('5', 'Loop A', '6', 'a@x.example'),
        job('6', 'Loop B', '5', 'b@x.example'),
      ],
      site([['1', { kind: 'company', recordId: 'top' }]]),
    );
    const byName = Object.fromEntries(listing.customers.map((c) => [c.displayName, c]));
    expect(byName['Deep Job']).toMatchObject({
      parentQboId: '1',
      parentName: 'Top Co',
      company: 'Top Co',
      parentSiteId: 'top',
      selectable: true,
    });
    expect(byName['Orphan Job']).toMatchObject({
      parentQboId: '99',
      parentName: 'Gone Co',
      company: null,
      parentOnSite: false,
      reason: IMPORT_TEXTS.parentNotOnSite,
    });
    expect(byName['Loop A']?.selectable).toBe(false);
    expect(listing.companies.map((c) => c.qboId)).toEqual(['1']);
  });
});
