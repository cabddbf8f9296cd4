/**
 * Spec §3: the event-detail and will-call fields of an order request, flattened into the estimate.
 * No TypeBox here: the frontends import this file directly.
 */
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
] as const;

export const WILL_CALL_FIELDS = [
  'willCallCustomerName',
  'willCallPickupDate',
  'willCallPickupTime',
  'willCallReturnDate',
  'willCallReturnTime',
] as const;

export type EstimateDetailField = (typeof EVENT_DETAIL_FIELDS)[number] | (typeof WILL_CALL_FIELDS)[number];
