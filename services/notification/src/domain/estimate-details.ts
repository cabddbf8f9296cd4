import {
  type EstimateDetailField,
  EVENT_DETAIL_FIELDS,
  ORDER_FIELD,
  type OrderDetailValues,
  showWillCall,
  WILL_CALL_FIELDS,
} from '@decor/contracts';
import { formatLongDate, formatTime } from './format';

/** One line of the event-details or will-call table, ready to show (not yet escaped). */
export interface DetailRow {
  label: string;
  value: string;
}

/** The form's label of each event-detail and will-call field (contracts' fields table). */
export const DETAIL_LABELS: Record<EstimateDetailField, string> = Object.fromEntries(
  Object.values(ORDER_FIELD).map((f) => [f.name, f.label]),
) as Record<EstimateDetailField, string>;

/** A field's value as the summary shows it: dates long with ordinal day, times 12-hour. */
export function showDetail(field: EstimateDetailField, value: string): string {
  const { kind } = ORDER_FIELD[field];
  if (kind === 'date') return formatLongDate(value);
  if (kind === 'time') return formatTime(value);
  return value.trim();
}

function filled(details: OrderDetailValues, field: EstimateDetailField): boolean {
  return (details[field] ?? '').trim() !== '';
}

function rows(details: OrderDetailValues, fields: readonly EstimateDetailField[]): DetailRow[] {
  return fields
    .filter((f) => filled(details, f))
    .map((f) => ({ label: DETAIL_LABELS[f], value: showDetail(f, details[f] ?? '') }));
}

/** The event details the customer filled in, in the form's order. */
export function eventDetailRows(details: OrderDetailValues): DetailRow[] {
  return rows(details, EVENT_DETAIL_FIELDS);
}

/**
 * Spec §5: will-call details appear only if at least two will-call values are filled (the
 * customer name is prefilled, so it alone does not make a will-call order). Empty list otherwise.
 */
export function willCallRows(details: OrderDetailValues): DetailRow[] {
  return showWillCall(details) ? rows(details, WILL_CALL_FIELDS) : [];
}
