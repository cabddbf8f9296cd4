/** The one table of the order's event and will-call fields, and the name lists kept for their users. */
import {
  EVENT_DETAIL_FIELDS,
  EVENT_FIELD_SPECS,
  formLabel,
  ORDER_FIELD,
  ORDER_FIELDS,
  WILL_CALL_FIELD_SPECS,
  WILL_CALL_FIELDS,
} from '../src/estimate-fields';

it('lists the 18 fields of spec §3 once, event details then will-call, as the old name lists do', () => {
  const names = ORDER_FIELDS.map((f) => f.name);
  expect(names).toEqual([...EVENT_DETAIL_FIELDS, ...WILL_CALL_FIELDS]);
  expect(new Set(names).size).toBe(18);
  expect(ORDER_FIELDS.filter((f) => f.willCall).map((f) => f.name)).toEqual([...WILL_CALL_FIELDS]);
});

it('marks the required and the read-only fields of spec §5', () => {
  expect(ORDER_FIELDS.filter((f) => f.required).map((f) => f.name)).toEqual([
    'groupName',
    'eventDate',
    'location',
  ]);
  expect(ORDER_FIELDS.filter((f) => f.readOnly).map((f) => f.name)).toEqual([
    'customerName',
    'willCallCustomerName',
  ]);
  expect(ORDER_FIELD.eventDate).toMatchObject({ label: 'Event Date', kind: 'date', maxLength: 10 });
  for (const f of ORDER_FIELDS) expect(f.maxLength).toBeGreaterThan(0);
});

it('gives the forms their layout and labels from the same table', () => {
  expect(EVENT_FIELD_SPECS.map((f) => f.name)).toEqual([...EVENT_DETAIL_FIELDS]);
  expect(WILL_CALL_FIELD_SPECS.map((f) => f.name)).toEqual([...WILL_CALL_FIELDS]);
  expect(formLabel(ORDER_FIELD.location)).toBe('Location (required)');
  expect(formLabel(ORDER_FIELD.room)).toBe('Room');
  expect(ORDER_FIELD.location.maxLength).toBe(300);
});
