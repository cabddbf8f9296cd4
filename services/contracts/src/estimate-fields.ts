/**
 * Spec §3: the event-detail and will-call fields of an order request, flattened into the estimate
 * (and its invoice). ONE table: name, form label, kind, required, read-only and the longest value
 * kept (after trimming). The order service derives its request schemas and parser from it; the
 * frontends and the e-mails read the names and labels. No TypeBox here: the frontends import this
 * file directly.
 */

export type OrderFieldKind = 'text' | 'date' | 'time' | 'textarea';

export interface OrderFieldSpec<N extends string = string> {
  name: N;
  /** The form's label (the will-call customer name is 'Customer Name' under the Will Call heading). */
  label: string;
  kind: OrderFieldKind;
  /** Spec §5: groupName, eventDate and location are required. */
  required: boolean;
  /** Spec §5: customerName and willCallCustomerName are read-only (set by the server). */
  readOnly: boolean;
  /** Longest value kept, counted after trimming. */
  maxLength: number;
  /** Will Call Details card (else Event Details). */
  willCall: boolean;
}

type Flags = { required?: boolean; readOnly?: boolean; willCall?: boolean };

/** A row; `required` keeps its literal type so the value types below know the required names. */
const field = <N extends string, const F extends Flags = Record<never, never>>(
  name: N,
  label: string,
  kind: OrderFieldKind,
  maxLength: number,
  flags: F = {} as F,
): OrderFieldSpec<N> & { required: F['required'] extends true ? true : false } =>
  ({
    name,
    label,
    kind,
    required: flags.required ?? false,
    readOnly: flags.readOnly ?? false,
    maxLength,
    willCall: flags.willCall ?? false,
  }) as OrderFieldSpec<N> & { required: F['required'] extends true ? true : false };

/** The 18 fields in the order of the form: 13 event details, then 5 will-call fields. */
export const ORDER_FIELDS = [
  field('customerName', 'Customer Name', 'text', 200, { readOnly: true }),
  field('groupName', 'Group Name', 'text', 200, { required: true }),
  field('eventDate', 'Event Date', 'date', 10, { required: true }),
  field('location', 'Location', 'text', 300, { required: true }),
  field('operationsManager', 'Operations Manager', 'text', 200),
  field('eventStartTime', 'Event Start Time', 'time', 50),
  field('eventEndTime', 'Event End Time', 'time', 50),
  field('room', 'Room', 'text', 200),
  field('loadInTime', 'Load In Time', 'time', 50),
  field('setByTime', 'Set By Time', 'time', 50),
  field('strikeTime', 'Strike Time', 'time', 50),
  field('commentsOnSetup', 'Comments On Setup', 'textarea', 2000),
  field('commentsOnEvent', 'Comments On Event', 'textarea', 2000),
  field('willCallCustomerName', 'Customer Name', 'text', 200, { readOnly: true, willCall: true }),
  field('willCallPickupDate', 'Pickup Date', 'date', 50, { willCall: true }),
  field('willCallPickupTime', 'Pickup Time', 'time', 50, { willCall: true }),
  field('willCallReturnDate', 'Return Date', 'date', 50, { willCall: true }),
  field('willCallReturnTime', 'Return Time', 'time', 50, { willCall: true }),
] as const;

type EventFieldName = Exclude<(typeof ORDER_FIELDS)[number], { willCall: true }>['name'];

/** All optional strings but groupName, eventDate and location. */
export const EVENT_DETAIL_FIELDS = [
  'customerName',
  'groupName',
  'eventDate',
  'location',
  'operationsManager',
  'eventStartTime',
  'eventEndTime',
  'room',
  'loadInTime',
  'setByTime',
  'strikeTime',
  'commentsOnSetup',
  'commentsOnEvent',
] as const satisfies readonly EventFieldName[];

export const WILL_CALL_FIELDS = [
  'willCallCustomerName',
  'willCallPickupDate',
  'willCallPickupTime',
  'willCallReturnDate',
  'willCallReturnTime',
] as const;

export type EstimateDetailField = (typeof EVENT_DETAIL_FIELDS)[number] | (typeof WILL_CALL_FIELDS)[number];

/** The table's row of a field. */
export const ORDER_FIELD: Readonly<Record<EstimateDetailField, OrderFieldSpec<EstimateDetailField>>> =
  Object.fromEntries(ORDER_FIELDS.map((f) => [f.name, f])) as Record<
    EstimateDetailField,
    OrderFieldSpec<EstimateDetailField>
  >;

export type EventDetailField = (typeof EVENT_DETAIL_FIELDS)[number];
export type WillCallField = (typeof WILL_CALL_FIELDS)[number];
/** Spec §5: the fields an order request cannot do without (groupName, eventDate, location). */
export type RequiredDetailField = Extract<(typeof ORDER_FIELDS)[number], { required: true }>['name'];

/** The filled-in values of an order's fields by name, as events carry them (`details`). */
export type OrderDetailValues = { [K in EstimateDetailField]?: string };

/**
 * The Event Details of an order request as the checkout sends them: the required fields always, and
 * the company name the server sets anyway (read-only) so the summary can show it.
 */
export type EventDetails = { [K in EventDetailField]?: string } & {
  [K in RequiredDetailField | 'customerName']: string;
};
export type WillCall = { [K in WillCallField]?: string };

/** The field's label with the spec's '(required)' marker, as the forms show it. */
export const formLabel = (f: Pick<OrderFieldSpec, 'label' | 'required'>): string =>
  f.required ? `${f.label} (required)` : f.label;

/** Event details, then will-call fields, as the forms and summaries lay them out. */
export const EVENT_FIELD_SPECS = ORDER_FIELDS.filter(
  (f) => !f.willCall,
) as readonly OrderFieldSpec<EventDetailField>[];
export const WILL_CALL_FIELD_SPECS = ORDER_FIELDS.filter(
  (f) => f.willCall,
) as readonly OrderFieldSpec<WillCallField>[];
