import { estimateTotals, formatTime, lineTotalCents, SALES_TAX_RATE, toDollars } from '@decor/contracts';
import { lineDescription, truncate } from './names';
import type {
  DocumentRefs,
  EstimateRecord,
  QboCustomField,
  QboEstimate,
  QboInvoice,
  QboSalesDocument,
  QboSalesLine,
  QboTaxCode,
  Ref,
} from './types';

/** Spec §9: 8.1, the percentage form of the contracts' SALES_TAX_RATE (0.081). */
export const SALES_TAX_PERCENT = Math.round(SALES_TAX_RATE * 1000) / 10;

/** Spec §9: the note on every estimate (and its invoice), shown to the customer as CustomerMemo. */
export const ESTIMATE_NOTE =
  'Labor is to be determined, so the labor line is an estimate only; trucking has a minimum charge of $350.00.';

export const TRUCKING_LINE_DESCRIPTION = 'Trucking fee';
export const LABOR_LINE_DESCRIPTION = 'Labor (estimate; final labor to be determined)';

/** Above this cart total labor is a percentage, at or below it a flat fee (spec §9). */
const LABOR_THRESHOLD_CENTS = 60_000;
const LABOR_PERCENT = 15;
const LABOR_FLAT_CENTS = 10_000;

/**
 * Spec §9 accounting labor line: 15 % of the cart total when the total is above $600.00,
 * otherwise a flat $100.00; rounded to the cent (half up, in integers so no float drift).
 */
export function laborCents(cartTotalCents: number): number {
  if (cartTotalCents > LABOR_THRESHOLD_CENTS) return Math.round((cartTotalCents * LABOR_PERCENT) / 100);
  return LABOR_FLAT_CENTS;
}

/**
 * Legacy QuickBooks sales-form custom fields hold short text; 31 characters is the limit we know
 * of (the API's own limit is not documented in our notes), so longer values are cut, not refused.
 */
export const CUSTOM_FIELD_MAX_LENGTH = 31;

/**
 * An order request → a QuickBooks Estimate: the rental lines (taxed), the trucking fee (taxed), the
 * labor line (not taxed), tax = 8.1 % of (subtotal + trucking) by the site's own estimateTotals,
 * the three custom fields, expiry = event date, the customer note. TxnDate is left to QuickBooks.
 */
export function estimateDocument(e: EstimateRecord, refs: DocumentRefs): QboEstimate {
  const doc: QboEstimate = salesDocument(e, refs);
  const expiration = calendarDate(e.details.eventDate);
  if (expiration) doc.ExpirationDate = expiration;
  return doc;
}

/** The invoice of an accepted estimate: the same lines, tax and fields, linked to the estimate. */
export function invoiceDocument(
  e: EstimateRecord,
  refs: DocumentRefs,
  linkedEstimateQboId?: string,
): QboInvoice {
  const doc: QboInvoice = salesDocument(e, refs);
  if (linkedEstimateQboId) doc.LinkedTxn = [{ TxnId: linkedEstimateQboId, TxnType: 'Estimate' }];
  return doc;
}

function salesDocument(e: EstimateRecord, refs: DocumentRefs): QboSalesDocument {
  const totals = estimateTotals(e.subtotalCents, e.truckingCents);
  const lines = e.lines.map((line) => {
    const itemRef = refs.items[line.productId];
    if (!itemRef)
      throw new Error(`no QuickBooks item for product ${line.productId} (estimate ${e.estimateId})`);
    return salesLine(itemRef, line.qty, line.priceCents, 'TAX', lineDescription(line.name, line.description));
  });
  // A trucking fee of 0 is left out rather than shown as $0.00 next to "minimum charge of $350.00".
  if (e.truckingCents > 0) {
    lines.push(salesLine(refs.truckingItem, 1, e.truckingCents, 'TAX', TRUCKING_LINE_DESCRIPTION));
  }
  lines.push(salesLine(refs.laborItem, 1, laborCents(e.subtotalCents), 'NON', LABOR_LINE_DESCRIPTION));

  const doc: QboSalesDocument = {
    DocNumber: e.docNumber,
    CustomerRef: refs.customer,
    Line: lines,
    TxnTaxDetail: { TotalTax: toDollars(totals.taxCents) },
    CustomField: customFields(e.details, refs.customFields),
    CustomerMemo: { value: ESTIMATE_NOTE },
  };
  const email = e.customerEmail?.trim();
  if (email) doc.BillEmail = { Address: email };
  return doc;
}

function salesLine(
  itemRef: Ref,
  qty: number,
  priceCents: number,
  tax: QboTaxCode,
  text: string,
): QboSalesLine {
  const line: QboSalesLine = {
    DetailType: 'SalesItemLineDetail',
    Amount: toDollars(lineTotalCents(priceCents, qty)),
    SalesItemLineDetail: {
      ItemRef: itemRef,
      Qty: qty,
      UnitPrice: toDollars(priceCents),
      TaxCodeRef: { value: tax },
    },
  };
  if (text) line.Description = text;
  return line;
}

/** Group Name, Event Time, Location: each only when it has a value and a DefinitionId. */
function customFields(details: Record<string, string>, ids: DocumentRefs['customFields']): QboCustomField[] {
  const fields: Array<[string | undefined, string, string | undefined]> = [
    [ids.groupName, 'Group Name', details.groupName],
    [ids.eventTime, 'Event Time', eventTime(details.eventStartTime, details.eventEndTime)],
    [ids.location, 'Location', details.location],
  ];
  const out: QboCustomField[] = [];
  for (const [definitionId, name, value] of fields) {
    const text = value?.trim();
    if (!definitionId || !text) continue;
    out.push({
      DefinitionId: definitionId,
      Name: name,
      Type: 'StringType',
      StringValue: truncate(text, CUSTOM_FIELD_MAX_LENGTH).trimEnd(),
    });
  }
  return out;
}

/** '17:00' and '23:30' → '5:00 PM – 11:30 PM'; one of them alone → that one; neither → ''. */
export function eventTime(start: string | undefined, end: string | undefined): string {
  const [from, to] = [formatTime(start), formatTime(end)];
  if (from && to) return `${from} – ${to}`;
  return from || to;
}

/**
 * The calendar date of 'YYYY-MM-DD' or an ISO timestamp ('2027-03-14T07:00:00.000Z' → '2027-03-14',
 * the date as written, no time-zone shift); undefined for anything that is not a real date.
 */
export function calendarDate(value: string | undefined): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value?.trim() ?? '');
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return `${match[1]}-${match[2]}-${match[3]}`;
}
