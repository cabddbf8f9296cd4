import type { EventDetails, WillCall } from '@decor/web-core';

export type EventField = keyof EventDetails;
export type WillCallField = keyof WillCall;

export interface FieldSpec<K extends string> {
  name: K;
  label: string;
  kind: 'text' | 'date' | 'time' | 'textarea';
  required?: boolean;
  locked?: boolean;
}

/** Event details in spec order (section 3): fields 1-6 and 7-13 make the summary's two tables. */
export const EVENT_FIELDS: FieldSpec<EventField>[] = [
  { name: 'customerName', label: 'Customer Name', kind: 'text', locked: true },
  { name: 'groupName', label: 'Group Name', kind: 'text', required: true },
  { name: 'eventDate', label: 'Event Date', kind: 'date', required: true },
  { name: 'location', label: 'Location', kind: 'text', required: true },
  { name: 'operationsManager', label: 'Operations Manager', kind: 'text' },
  { name: 'eventStartTime', label: 'Event Start Time', kind: 'time' },
  { name: 'eventEndTime', label: 'Event End Time', kind: 'time' },
  { name: 'room', label: 'Room', kind: 'text' },
  { name: 'loadInTime', label: 'Load In Time', kind: 'time' },
  { name: 'setByTime', label: 'Set By Time', kind: 'time' },
  { name: 'strikeTime', label: 'Strike Time', kind: 'time' },
  { name: 'commentsOnSetup', label: 'Comments On Setup', kind: 'textarea' },
  { name: 'commentsOnEvent', label: 'Comments On Event', kind: 'textarea' },
];

export const WILL_CALL_FIELDS: FieldSpec<WillCallField>[] = [
  { name: 'willCallCustomerName', label: 'Customer Name', kind: 'text', locked: true },
  { name: 'willCallPickupDate', label: 'Pickup Date', kind: 'date' },
  { name: 'willCallPickupTime', label: 'Pickup Time', kind: 'time' },
  { name: 'willCallReturnDate', label: 'Return Date', kind: 'date' },
  { name: 'willCallReturnTime', label: 'Return Time', kind: 'time' },
];

/** Label with the spec's '(required)' marker. */
export const labelOf = (field: FieldSpec<string>) =>
  field.required ? `${field.label} (required)` : field.label;

/** The navigation state carried from the cart to the event form to the summary. */
export interface CheckoutState {
  cartId: string;
  event?: EventDetails;
  willCall?: WillCall;
}

/** Spec §2 terms (section 9 constants). */
export const TERMS = [
  'An overtime fee of $35.00 per staff member per hour (or part of an hour) applies when the set or strike cannot take place at the contracted time.',
  'Strikes after 11:00pm are charged extra labor.',
  'Orders of $600.00 or less (excluding taxes and trucking) carry a $100.00 minimum service charge.',
  'Special orders require a 50% non-refundable payment upfront, due within one week of the signed contract.',
  'Trucking and labor charges are estimates.',
  'The warranty period is ten days.',
];
