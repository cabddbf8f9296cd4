/**
 * Search, filter and paging of the import listing (`GET /qbo/users?search&hideOnSite&offset&limit`),
 * so that a realm with thousands of Customers can be looked through a page at a time. Pure: it only
 * narrows what `importListing` decided (selectable, reason stay exactly as they were).
 */
import type { ImportCompany, ImportCustomer, ImportListing } from './import-listing';

export interface ImportQuery {
  /** Words typed by staff: each must appear (case and accents ignored) in one of the entry's fields. */
  search?: string;
  /** Leave out entries already on the site. */
  hideOnSite?: boolean;
  offset?: number;
  /** None: every entry from `offset` on. */
  limit?: number;
}

export interface ImportPage extends ImportListing {
  /** Entries matching (companies + customers), before paging. */
  total: number;
}

/** Lower case without accents, so 'jose' finds 'José'. */
export const folded = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** What a word typed may be found in: names, company names and e-mail. */
const companyText = (c: ImportCompany) => [c.displayName, c.name, c.email];
const customerText = (c: ImportCustomer) => [
  c.displayName,
  c.firstName,
  c.lastName,
  c.email,
  c.company,
  c.parentName,
];

/**
 * Companies first, then customers (each in the listing's display-name order), as one sequence that
 * `offset` and `limit` cut: a page may end the companies and begin the customers.
 */
export function searchImportListing(listing: ImportListing, query: ImportQuery): ImportPage {
  const words = folded(query.search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const matches = (fields: Array<string | null>) => {
    if (words.length === 0) return true;
    // '\n' never occurs in a word, so a word cannot match across two fields.
    const text = folded(fields.filter(Boolean).join('\n'));
    return words.every((w) => text.includes(w));
  };
  const shown = (entry: { onSite: boolean }) => !(query.hideOnSite && entry.onSite);
  const companies = listing.companies.filter((c) => shown(c) && matches(companyText(c)));
  const customers = listing.customers.filter((c) => shown(c) && matches(customerText(c)));

  const from = query.offset ?? 0;
  const to = query.limit === undefined ? Number.POSITIVE_INFINITY : from + query.limit;
  const n = companies.length;
  return {
    companies: companies.slice(from, to),
    customers: to > n ? customers.slice(Math.max(0, from - n), to - n) : [],
    total: n + customers.length,
  };
}
