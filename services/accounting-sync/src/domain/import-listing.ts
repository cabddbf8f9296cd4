/**
 * The import dialog's listing (spec §2 Admin users, §5 import rules, §7 `GET /qbo/users`): QuickBooks'
 * Customers split into companies (top level) and customers (Jobs, with ParentRef), each marked when a
 * site record already carries its QuickBooks id, with what the dialog needs to apply the rules. Pure:
 * the route reads QuickBooks and this service's own sync records, then calls `importListing`.
 */
import { IMPORT_TEXTS, type QboImportCompanyView, type QboImportCustomerView } from '@decor/contracts';

/** A QuickBooks Customer as the query answers it (only the fields read here). */
export interface QboCustomerRow {
  Id: string | number;
  DisplayName?: string;
  CompanyName?: string;
  GivenName?: string;
  FamilyName?: string;
  Job?: boolean;
  ParentRef?: { value: string | number; name?: string };
  PrimaryEmailAddr?: { Address?: string };
  PrimaryPhone?: { FreeFormNumber?: string };
  BillAddr?: { Line1?: string; City?: string; CountrySubDivisionCode?: string; PostalCode?: string };
}

/** A site record this service knows to be a QuickBooks Customer (from its own sync records). */
export interface SiteRecordRef {
  kind: 'company' | 'customer';
  recordId: string;
}

/** The listing's entries: contracts' views (the route answers them, the import dialog reads them). */
export type ImportCompany = QboImportCompanyView;
export type ImportCustomer = QboImportCustomerView;
type Address = Pick<ImportCompany, 'street' | 'city' | 'state' | 'zipCode'>;
type Marks = Pick<ImportCompany, 'onSite' | 'siteId' | 'selectable' | 'reason'>;

export interface ImportListing {
  companies: ImportCompany[];
  customers: ImportCustomer[];
}

const text = (value: unknown): string | null => {
  const s = typeof value === 'string' ? value.trim() : '';
  return s ? s : null;
};

const addressOf = (row: QboCustomerRow): Address => ({
  street: text(row.BillAddr?.Line1),
  city: text(row.BillAddr?.City),
  state: text(row.BillAddr?.CountrySubDivisionCode),
  zipCode: text(row.BillAddr?.PostalCode),
});

const byName = (a: { displayName: string; qboId: string }, b: { displayName: string; qboId: string }) =>
  a.displayName.localeCompare(b.displayName, 'en', { sensitivity: 'base' }) ||
  Number(a.qboId) - Number(b.qboId);

/**
 * `rows`: every Customer of the realm; `site`: QuickBooks id → the site record holding it. A company
 * counts as on the site for its customers only when the site record is a company.
 */
export function importListing(
  rows: QboCustomerRow[],
  site: ReadonlyMap<string, SiteRecordRef>,
): ImportListing {
  const byId = new Map(rows.map((r) => [String(r.Id), r]));
  const parentIdOf = (row: QboCustomerRow) =>
    row.ParentRef?.value !== undefined && row.ParentRef.value !== '' ? String(row.ParentRef.value) : null;
  /** Follows ParentRef up to the top-level Customer (a cycle or a missing link stops the walk). */
  const topOf = (row: QboCustomerRow): string => {
    const seen = new Set<string>([String(row.Id)]);
    let id = parentIdOf(row) as string;
    for (;;) {
      const parent = byId.get(id);
      const next = parent ? parentIdOf(parent) : null;
      if (!next || seen.has(next)) return id;
      seen.add(id);
      id = next;
    }
  };
  const marks = (qboId: string, blocked: string | null): Marks => {
    const rec = site.get(qboId);
    const reason = rec ? IMPORT_TEXTS.onSite : blocked;
    return { onSite: Boolean(rec), siteId: rec?.recordId ?? null, selectable: reason === null, reason };
  };

  const companies: ImportCompany[] = [];
  const customers: ImportCustomer[] = [];
  for (const row of rows) {
    const qboId = String(row.Id);
    const displayName = text(row.DisplayName) ?? qboId;
    const email = text(row.PrimaryEmailAddr?.Address);
    const phone = text(row.PrimaryPhone?.FreeFormNumber);
    if (!parentIdOf(row)) {
      const name = text(row.CompanyName);
      companies.push({
        qboId,
        displayName,
        name,
        email,
        phone,
        ...addressOf(row),
        ...marks(qboId, name ? null : IMPORT_TEXTS.companyWithoutName),
      });
      continue;
    }
    const parentQboId = topOf(row);
    const parent = byId.get(parentQboId);
    const parentSite = site.get(parentQboId);
    const parentSiteId = parentSite?.kind === 'company' ? parentSite.recordId : null;
    const blocked = !email
      ? IMPORT_TEXTS.customerWithoutEmail
      : !parentSiteId
        ? IMPORT_TEXTS.parentNotOnSite
        : null;
    customers.push({
      qboId,
      displayName,
      firstName: text(row.GivenName),
      lastName: text(row.FamilyName),
      email,
      phone,
      company:
        text(row.CompanyName) ?? (parent ? (text(parent.CompanyName) ?? text(parent.DisplayName)) : null),
      parentQboId,
      parentName: parent ? (text(parent.DisplayName) ?? parentQboId) : (text(row.ParentRef?.name) ?? null),
      parentOnSite: parentSiteId !== null,
      parentSiteId,
      ...addressOf(row),
      ...marks(qboId, blocked),
    });
  }
  return { companies: companies.sort(byName), customers: customers.sort(byName) };
}
