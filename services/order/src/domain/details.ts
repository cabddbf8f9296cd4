import { type EstimateDetailField, ORDER_FIELD, ORDER_FIELDS, WILL_CALL_FIELDS } from '@decor/contracts';

/** Spec §3: the event-detail and will-call fields of an order request, in the order of the form. */
export const DETAIL_FIELDS: readonly EstimateDetailField[] = ORDER_FIELDS.map((f) => f.name);

/** Longest value kept per field, counted after trimming (contracts' fields table). */
export const DETAIL_MAX_LENGTH: Readonly<Record<EstimateDetailField, number>> = Object.fromEntries(
  ORDER_FIELDS.map((f) => [f.name, f.maxLength]),
) as Record<EstimateDetailField, number>;

/** The filled-in fields only (trimmed, never empty strings). */
export type EstimateDetails = Partial<Record<EstimateDetailField, string>>;

export type DetailsInput = Partial<Record<EstimateDetailField, string | undefined>>;

export const DATE_FORMAT_MESSAGE = 'eventDate must be a date in the form YYYY-MM-DD';
export const REAL_DATE_MESSAGE = 'eventDate must be a real date';

/** True for a YYYY-MM-DD string naming a day that exists (2027-02-29 does not, 2028-02-29 does). */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/**
 * The client's event details, trimmed, with empty values dropped, or the first problem in the
 * order of the form. The read-only names (customerName, willCallCustomerName) are replaced by the
 * server later (`withCustomerName`); only whether will-call was used is kept from them.
 */
export function parseDetails(input: DetailsInput): { details: EstimateDetails } | { problem: string } {
  const details: EstimateDetails = {};
  for (const field of DETAIL_FIELDS) {
    const value = input[field]?.trim();
    if (!value) {
      if (ORDER_FIELD[field].required) return { problem: `${field} is required` };
      continue;
    }
    if (field === 'customerName') continue;
    if (field === 'eventDate') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return { problem: DATE_FORMAT_MESSAGE };
      if (!isRealDate(value)) return { problem: REAL_DATE_MESSAGE };
    }
    const max = DETAIL_MAX_LENGTH[field];
    if (value.length > max) return { problem: `${field} must be at most ${max} characters` };
    details[field] = value;
  }
  return { details };
}

/**
 * Spec §3: the customer name is the customer's company, prefilled and not editable, so the server
 * sets it whatever the client sent. The will-call customer name (also prefilled, read-only) is set
 * the same way, but only when the order uses will call at all (any will-call field filled).
 */
export function withCustomerName(details: EstimateDetails, customerName: string): EstimateDetails {
  const { customerName: _ignored, willCallCustomerName: _alsoIgnored, ...rest } = details;
  const usesWillCall = WILL_CALL_FIELDS.some((field) => details[field]);
  return {
    customerName,
    ...rest,
    ...(usesWillCall ? { willCallCustomerName: customerName } : {}),
  };
}
