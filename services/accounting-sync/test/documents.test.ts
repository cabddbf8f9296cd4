import { estimateTotals, SALES_TAX_RATE } from '@decor/contracts';
import {
  CUSTOM_FIELD_MAX_LENGTH,
  calendarDate,
  categoryItemDocument,
  categoryKey,
  companyCustomerDocument,
  contentHash,
  type DocumentRefs,
  ESTIMATE_NOTE,
  type EstimateRecord,
  estimateDocument,
  eventTime,
  invoiceDocument,
  jobCustomerDocument,
  LABOR_LINE_DESCRIPTION,
  laborCents,
  productItemDocument,
  type QboSalesDocument,
  qboDisplayName,
  SALES_TAX_PERCENT,
  splitCategoryKey,
  TRUCKING_LINE_DESCRIPTION,
} from '../src/domain/documents';

const refs: DocumentRefs = {
  customer: { value: '58', name: 'Jane Doe' },
  items: { 'CH-GOLD': { value: '101', name: 'CH-GOLD' }, 'BAR-6': { value: '102', name: 'BAR-6' } },
  truckingItem: { value: '900', name: 'Trucking' },
  laborItem: { value: '901', name: 'Labor' },
  customFields: { groupName: '1', eventTime: '2', location: '3' },
};

/** The spec's example: a $1,000.00 cart and a $150.00 trucking fee. */
function estimate(overrides: Partial<EstimateRecord> = {}): EstimateRecord {
  return {
    estimateId: 'est-1',
    docNumber: '1042',
    details: {
      eventDate: '2027-03-14',
      groupName: 'Smith Wedding',
      location: 'Grand Hall',
      eventStartTime: '17:00',
      eventEndTime: '23:30',
    },
    lines: [
      // 100 × $6.50 + 1 × $350.00 = $1,000.00
      {
        productId: 'CH-GOLD',
        name: 'Gold Chiavari Chair',
        description: 'Resin',
        qty: 100,
        priceCents: 650,
        totalCents: 65_000,
      },
      {
        productId: 'BAR-6',
        name: '6 ft Bar',
        description: '',
        qty: 1,
        priceCents: 35_000,
        totalCents: 35_000,
      },
    ],
    subtotalCents: 100_000,
    truckingCents: 15_000,
    customerEmail: 'jane@example.com',
    ...overrides,
  };
}

const sumAmounts = (doc: QboSalesDocument) =>
  doc.Line.reduce((sum, line) => sum + Math.round(line.Amount * 100), 0);

describe('laborCents (spec §9)', () => {
  it('is 15 % of a cart above $600.00', () => {
    expect(laborCents(100_000)).toBe(15_000);
  });

  it('is a flat $100.00 at $600.00 (not above) and below', () => {
    expect(laborCents(60_000)).toBe(10_000);
    expect(laborCents(12_345)).toBe(10_000);
    expect(laborCents(0)).toBe(10_000);
  });

  it('is 15 % rounded to the cent just above $600.00', () => {
    expect(laborCents(60_001)).toBe(9_000); // 9000.15 → $90.00
    expect(laborCents(60_010)).toBe(9_002); // 9001.5 → half up
    expect(laborCents(60_003)).toBe(9_000); // 9000.45
  });
});

describe('tax constants', () => {
  it('SALES_TAX_PERCENT is 8.1, from the contracts rate', () => {
    expect(SALES_TAX_RATE).toBe(0.081);
    expect(SALES_TAX_PERCENT).toBe(8.1);
  });
});

describe('estimateDocument', () => {
  const doc = estimateDocument(estimate(), refs);

  it('has the spec numbers: labor $150.00, tax 8.1 % of $1,150.00 = $93.15', () => {
    expect(doc.TxnTaxDetail).toEqual({ TotalTax: 93.15 });
    const labor = doc.Line.at(-1);
    expect(labor?.SalesItemLineDetail).toEqual({
      ItemRef: refs.laborItem,
      Qty: 1,
      UnitPrice: 150,
      TaxCodeRef: { value: 'NON' },
    });
    expect(labor?.Amount).toBe(150);
    expect(labor?.Description).toBe(LABOR_LINE_DESCRIPTION);
  });

  it('takes its tax from estimateTotals, so QuickBooks and the site agree to the cent', () => {
    for (const [subtotal, trucking] of [
      [100_000, 15_000],
      [12_345, 35_000],
      [99_999, 0],
      [1, 1],
    ] as const) {
      const d = estimateDocument(estimate({ subtotalCents: subtotal, truckingCents: trucking }), refs);
      expect(Math.round(d.TxnTaxDetail.TotalTax * 100)).toBe(estimateTotals(subtotal, trucking).taxCents);
    }
  });

  it('lists the rental lines (TAX), then trucking (TAX), then labor (NON)', () => {
    expect(doc.Line).toEqual([
      {
        DetailType: 'SalesItemLineDetail',
        Amount: 650,
        Description: 'Gold Chiavari Chair — Resin',
        SalesItemLineDetail: {
          ItemRef: refs.items['CH-GOLD'],
          Qty: 100,
          UnitPrice: 6.5,
          TaxCodeRef: { value: 'TAX' },
        },
      },
      {
        DetailType: 'SalesItemLineDetail',
        Amount: 350,
        Description: '6 ft Bar',
        SalesItemLineDetail: {
          ItemRef: refs.items['BAR-6'],
          Qty: 1,
          UnitPrice: 350,
          TaxCodeRef: { value: 'TAX' },
        },
      },
      {
        DetailType: 'SalesItemLineDetail',
        Amount: 150,
        Description: TRUCKING_LINE_DESCRIPTION,
        SalesItemLineDetail: {
          ItemRef: refs.truckingItem,
          Qty: 1,
          UnitPrice: 150,
          TaxCodeRef: { value: 'TAX' },
        },
      },
      {
        DetailType: 'SalesItemLineDetail',
        Amount: 150,
        Description: LABOR_LINE_DESCRIPTION,
        SalesItemLineDetail: {
          ItemRef: refs.laborItem,
          Qty: 1,
          UnitPrice: 150,
          TaxCodeRef: { value: 'NON' },
        },
      },
    ]);
    // Lines sum to subtotal + trucking + labor.
    expect(sumAmounts(doc)).toBe(100_000 + 15_000 + 15_000);
  });

  it('makes every line amount qty × unit price in dollars with at most 2 decimals', () => {
    const d = estimateDocument(
      estimate({
        lines: [
          {
            productId: 'CH-GOLD',
            name: 'Chair',
            description: '',
            qty: 3,
            priceCents: 1_999,
            totalCents: 5_997,
          },
          { productId: 'BAR-6', name: 'Bar', description: '', qty: 7, priceCents: 13, totalCents: 91 },
        ],
        subtotalCents: 6_088,
      }),
      refs,
    );
    for (const line of d.Line) {
      const { Qty, UnitPrice } = line.SalesItemLineDetail;
      expect(Math.round(line.Amount * 100)).toBe(Math.round(UnitPrice * 100) * Qty);
      expect(Math.round(line.Amount * 100) / 100).toBe(line.Amount);
    }
    expect(d.Line[0]?.Amount).toBe(59.97);
    expect(d.Line[1]?.Amount).toBe(0.91);
  });

  it('uses a flat $100.00 labor line for a $600.00 cart', () => {
    const d = estimateDocument(
      estimate({
        lines: [
          {
            productId: 'BAR-6',
            name: 'Bar',
            description: '',
            qty: 2,
            priceCents: 30_000,
            totalCents: 60_000,
          },
        ],
        subtotalCents: 60_000,
      }),
      refs,
    );
    expect(d.Line.at(-1)?.Amount).toBe(100);
    expect(d.TxnTaxDetail.TotalTax).toBe(60.75); // 8.1 % of $750.00
  });

  it('leaves out a trucking fee of 0', () => {
    const d = estimateDocument(estimate({ truckingCents: 0 }), refs);
    expect(d.Line.map((l) => l.SalesItemLineDetail.ItemRef.value)).toEqual(['101', '102', '901']);
    expect(d.TxnTaxDetail.TotalTax).toBe(81);
  });

  it('fills the three custom fields, the event time 12-hour', () => {
    expect(doc.CustomField).toEqual([
      { DefinitionId: '1', Name: 'Group Name', Type: 'StringType', StringValue: 'Smith Wedding' },
      { DefinitionId: '2', Name: 'Event Time', Type: 'StringType', StringValue: '5:00 PM – 11:30 PM' },
      { DefinitionId: '3', Name: 'Location', Type: 'StringType', StringValue: 'Grand Hall' },
    ]);
  });

  it('leaves out empty custom fields and those without a definition', () => {
    const d = estimateDocument(
      estimate({
        details: { eventDate: '2027-03-14', groupName: '  ', eventEndTime: '9:00 pm', location: 'Hall' },
      }),
      { ...refs, customFields: { ...refs.customFields, location: '' } },
    );
    expect(d.CustomField).toEqual([
      { DefinitionId: '2', Name: 'Event Time', Type: 'StringType', StringValue: '9:00 PM' },
    ]);
  });

  it('cuts a long custom field value to the QuickBooks length', () => {
    const location = 'The Grand Ballroom of the Riverside Convention Center';
    const d = estimateDocument(estimate({ details: { ...estimate().details, location } }), refs);
    expect(d.CustomField[2]?.StringValue).toBe(location.slice(0, CUSTOM_FIELD_MAX_LENGTH).trimEnd());
  });

  it('expires on the event date and carries number, customer, note and e-mail; no TxnDate', () => {
    expect(doc.ExpirationDate).toBe('2027-03-14');
    expect(doc.DocNumber).toBe('1042');
    expect(doc.CustomerRef).toEqual(refs.customer);
    expect(doc.CustomerMemo).toEqual({ value: ESTIMATE_NOTE });
    expect(doc.BillEmail).toEqual({ Address: 'jane@example.com' });
    expect(doc).not.toHaveProperty('TxnDate');
  });

  it('takes the expiry from an ISO event date and drops an invalid one', () => {
    const iso = estimateDocument(estimate({ details: { eventDate: '2027-03-14T07:00:00.000Z' } }), refs);
    expect(iso.ExpirationDate).toBe('2027-03-14');
    const bad = estimateDocument(estimate({ details: { eventDate: '2027-02-30' } }), refs);
    expect(bad).not.toHaveProperty('ExpirationDate');
  });

  it('has no BillEmail when the e-mail is unknown', () => {
    expect(estimateDocument(estimate({ customerEmail: undefined }), refs)).not.toHaveProperty('BillEmail');
  });

  it('refuses a line whose product has no QuickBooks item', () => {
    expect(() => estimateDocument(estimate(), { ...refs, items: {} })).toThrow(/CH-GOLD/);
  });

  it('the note names the labor and the $350 trucking minimum', () => {
    expect(ESTIMATE_NOTE).toMatch(/labor/i);
    expect(ESTIMATE_NOTE).toMatch(/determined/);
    expect(ESTIMATE_NOTE).toMatch(/\$350\.00/);
  });
});

describe('invoiceDocument', () => {
  it('has the estimate lines, tax and fields, no expiry, and links the estimate', () => {
    const est = estimateDocument(estimate(), refs);
    const inv = invoiceDocument(estimate(), refs, '777');
    const { ExpirationDate: _expiry, ...shared } = est;
    const { LinkedTxn, ...rest } = inv;
    expect(rest).toEqual(shared);
    expect(inv).not.toHaveProperty('ExpirationDate');
    expect(LinkedTxn).toEqual([{ TxnId: '777', TxnType: 'Estimate' }]);
    expect(inv.TxnTaxDetail.TotalTax).toBe(93.15);
  });

  it('has no LinkedTxn without an estimate', () => {
    expect(invoiceDocument(estimate(), refs)).not.toHaveProperty('LinkedTxn');
  });
});

describe('customer documents', () => {
  it('maps a company to a top-level customer', () => {
    expect(
      companyCustomerDocument({
        id: 'c1',
        name: 'Acme Events',
        displayName: 'Acme Events',
        street: '1 Main St',
        city: 'Phoenix',
        state: 'AZ',
        zipCode: '85001',
        phone: '602-555-0100',
      }),
    ).toEqual({
      DisplayName: 'Acme Events',
      CompanyName: 'Acme Events',
      PrimaryPhone: { FreeFormNumber: '602-555-0100' },
      BillAddr: { Line1: '1 Main St', City: 'Phoenix', CountrySubDivisionCode: 'AZ', PostalCode: '85001' },
    });
  });

  it('leaves out what a company does not have', () => {
    expect(companyCustomerDocument({ id: 'c2', name: 'Solo', displayName: '' })).toEqual({
      DisplayName: 'Solo',
      CompanyName: 'Solo',
    });
  });

  it('maps a customer to a Job under its company', () => {
    expect(
      jobCustomerDocument(
        {
          id: 'u1',
          firstName: 'Jane',
          lastName: 'Doe',
          displayName: 'Jane: Doe\tEvents',
          email: 'jane@example.com',
          phone: '602-555-0101',
          ownCompany: 'Acme Events',
          active: false,
          city: 'Tempe',
        },
        { value: '12', name: 'Acme Events' },
      ),
    ).toEqual({
      DisplayName: 'Jane - Doe Events',
      GivenName: 'Jane',
      FamilyName: 'Doe',
      Active: false,
      PrimaryEmailAddr: { Address: 'jane@example.com' },
      CompanyName: 'Acme Events',
      PrimaryPhone: { FreeFormNumber: '602-555-0101' },
      BillAddr: { City: 'Tempe' },
      Job: true,
      ParentRef: { value: '12', name: 'Acme Events' },
      BillWithParent: false,
    });
  });

  it('builds a DisplayName from the name parts when the display name is empty', () => {
    const doc = jobCustomerDocument(
      { id: 'u2', firstName: 'Sam', lastName: 'Lee', displayName: ' \n ', active: true },
      { value: '12' },
    );
    expect(doc.DisplayName).toBe('Sam Lee');
  });
});

describe('qboDisplayName', () => {
  it("replaces ':' with ' -' and tabs and newlines with a space, trimmed", () => {
    expect(qboDisplayName('Acme: West')).toBe('Acme - West');
    expect(qboDisplayName('  Jane\tDoe\r\nEvents  ')).toBe('Jane Doe Events');
    expect(qboDisplayName('a:b')).toBe('a -b');
  });

  it('is at most 500 characters', () => {
    expect(qboDisplayName('x'.repeat(600))).toHaveLength(500);
    expect(qboDisplayName(`${'x'.repeat(499)} y`)).toBe('x'.repeat(499));
    expect(qboDisplayName('é'.repeat(10), 4)).toBe('éééé');
  });
});

describe('item documents', () => {
  it('maps a product to a taxable Service item named by its SKU, under its category', () => {
    expect(
      productItemDocument(
        {
          sku: 'CH-GOLD',
          name: 'Gold Chiavari Chair',
          description: 'Resin',
          priceCents: 650,
          active: true,
          parentCategoryRef: { value: '12', name: 'CHAIRS' },
        },
        { value: '79', name: 'Rental Income' },
      ),
    ).toEqual({
      Name: 'CH-GOLD',
      Type: 'Service',
      Description: 'Gold Chiavari Chair — Resin',
      Sku: 'CH-GOLD',
      UnitPrice: 6.5,
      Active: true,
      Taxable: true,
      IncomeAccountRef: { value: '79', name: 'Rental Income' },
      SubItem: true,
      ParentRef: { value: '12', name: 'CHAIRS' },
    });
  });

  it('has no SubItem, ParentRef or account when none is given', () => {
    const doc = productItemDocument({
      sku: 'X1',
      name: 'Thing',
      description: '',
      priceCents: 1,
      active: false,
    });
    expect(doc).toEqual({
      Name: 'X1',
      Type: 'Service',
      Description: 'Thing',
      Sku: 'X1',
      UnitPrice: 0.01,
      Active: false,
      Taxable: true,
    });
  });

  it('maps categories and subcategories', () => {
    expect(categoryItemDocument({ id: '12', name: 'BARS' })).toEqual({ Name: 'BARS', Type: 'Category' });
    expect(
      categoryItemDocument({ id: '13', name: 'Back: Bars', parentRef: { value: '12', name: 'BARS' } }),
    ).toEqual({
      Name: 'Back - Bars',
      Type: 'Category',
      SubItem: true,
      ParentRef: { value: '12', name: 'BARS' },
    });
  });
});

describe('category keys', () => {
  it("splits '{id}__{name}'", () => {
    expect(splitCategoryKey('12__BARS')).toEqual({ id: '12', name: 'BARS' });
    expect(splitCategoryKey('12__BACK__BARS')).toEqual({ id: '12', name: 'BACK__BARS' });
  });

  it('has no id for a plain name', () => {
    expect(splitCategoryKey('BARS')).toEqual({ name: 'BARS' });
    expect(splitCategoryKey('__BARS')).toEqual({ name: 'BARS' });
  });

  it('joins what it splits', () => {
    expect(categoryKey('12', 'BARS')).toBe('12__BARS');
    expect(splitCategoryKey(categoryKey('7', 'LINENS'))).toEqual({ id: '7', name: 'LINENS' });
  });
});

describe('contentHash', () => {
  it('is the same for the same content with keys in another order', () => {
    const a = { Name: 'X1', Type: 'Service', UnitPrice: 6.5, ParentRef: { value: '12', name: 'BARS' } };
    const b = { ParentRef: { name: 'BARS', value: '12' }, UnitPrice: 6.5, Type: 'Service', Name: 'X1' };
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with a price', () => {
    const doc = estimateDocument(estimate(), refs);
    const repriced = estimateDocument(
      estimate({
        lines: estimate().lines.map((l, i) => (i === 0 ? { ...l, priceCents: 651, totalCents: 65_100 } : l)),
      }),
      refs,
    );
    expect(contentHash(doc)).toBe(contentHash(estimateDocument(estimate(), refs)));
    expect(contentHash(repriced)).not.toBe(contentHash(doc));
  });

  it('keeps array order significant and ignores undefined fields', () => {
    expect(contentHash([1, 2])).not.toBe(contentHash([2, 1]));
    expect(contentHash({ a: 1, b: undefined })).toBe(contentHash({ a: 1 }));
  });
});

describe('helpers', () => {
  it('eventTime', () => {
    expect(eventTime('09:30', '13:00')).toBe('9:30 AM – 1:00 PM');
    expect(eventTime('09:30', undefined)).toBe('9:30 AM');
    expect(eventTime(undefined, '')).toBe('');
  });

  it('calendarDate', () => {
    expect(calendarDate('2027-12-31')).toBe('2027-12-31');
    expect(calendarDate('2027-12-31T23:59:00-07:00')).toBe('2027-12-31');
    expect(calendarDate('12/31/2027')).toBeUndefined();
    expect(calendarDate(undefined)).toBeUndefined();
  });
});
