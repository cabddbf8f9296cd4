import {
  type EstimateDetailField,
  EVENT_DETAIL_FIELDS,
  showWillCall,
  WILL_CALL_FIELDS,
} from '@decor/contracts';
import { formatLongDate, formatTime } from './format';

/** One line of the event-details or will-call table, ready to show (not yet escaped). */
export interface DetailRow {
  label: string;
  value: string;
}

/** The form's label of each event-detail and will-call field. */
export const DETAIL_LABELS: Record<EstimateDetailField, string> = {
  customerName: 'Customer Name',
  groupName: 'Group Name',
  eventDate: 'Event Date',
  location: 'Location',
  operationsManager: 'Operations Manager',
  eventStartTime: 'Event Start Time',
  eventEndTime: 'Event End Time',
  room: 'Room',
  loadInTime: 'Load In Time',
  setByTime: 'Set By Time',
  strikeTime: 'Strike Time',
  commentsOnSetup: 'Comments On Setup',
  commentsOnEvent: 'Comments On Event',
  willCallCustomerName: 'Customer Name',
  willCallPickupDate: 'Pickup Date',
  willCallPickupTime: 'Pickup Time',
  willCallReturnDate: 'Return Date',
  willCallReturnTime: 'Return Time',
};

const DATE_FIELDS = new Set<string>(['eventDate', 'willCallPickupDate', 'willCallReturnDate']);
const TIME_FIELDS = new Set<string>([
  'eventStartTime',
  'eventEndTime',
  'loadInTime',
  'setByTime',
  'strikeTime',
  'willCallPickupTime',
  'willCallReturnTime',
]);

/** A field's value as the summary shows it: dates long with ordinal day, times 12-hour. */
export function showDetail(field: string, value: string): string {
  if (DATE_FIELDS.has(field)) return formatLongDate(value);
  if (TIME_FIELDS.has(field)) return formatTime(value);
  return value.trim();
}

function filled(details: Record<string, string>, field: string): boolean {
  return (details[field] ?? '').trim() !== '';
}

function rows(details: Record<string, string>, fields: readonly EstimateDetailField[]): DetailRow[] {
  return fields
    .filter((f) => filled(details, f))
    .map((f) => ({ label: DETAIL_LABELS[f], value: showDetail(f, details[f] ?? '') }));
}

/** The event details the customer filled in, in the form's order. */
export function eventDetailRows(details: Record<string, string>): DetailRow[] {
  return rows(details, EVENT_DETAIL_FIELDS);
}

/**
 * Spec §5: will-call details appear only if at least two will-call values are filled (the
 * customer name is prefilled, so it alone does not make a will-call order). Empty list otherwise.
 */
export function willCallRows(details: Record<string, string>): DetailRow[] {
  return showWillCall(details) ? rows(details, WILL_CALL_FIELDS) : [];
}
