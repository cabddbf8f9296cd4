import { ORDER_FIELDS, type OrderFieldSpec, WILL_CALL_FIELD_SPECS } from '@decor/contracts/rules';
import { formatLongDate, formatTime } from '@decor/web-core';
import { DatePicker, type Dayjs, dayjs, TimePicker } from '@decor/web-core/ui-dates';
import { Form, Input } from '@decor/web-core/ui-forms';
import type { KeyboardEvent } from 'react';
import { TEXTS } from '../texts';
import type { Order } from '../types';

/** The fields staff and customers may edit, from the one table in @decor/contracts. */
export const EDITABLE_FIELDS: readonly OrderFieldSpec[] = ORDER_FIELDS.filter((f) => !f.readOnly);

const DATE = 'YYYY-MM-DD';
const TIME = 'HH:mm';

export type FormValues = Record<string, string | Dayjs | number | null | undefined>;

export function showValue(field: OrderFieldSpec, value: string | null | undefined): string {
  if (!value) return '';
  if (field.kind === 'date') return formatLongDate(value);
  if (field.kind === 'time') return formatTime(value);
  return value;
}

/** The will-call card shows only when a will-call value other than the (server-set) name is filled. */
export function hasWillCall(order: Order): boolean {
  return WILL_CALL_FIELD_SPECS.some((f) => !f.readOnly && !!order[f.name as keyof Order]);
}

export function toForm(order: Order): FormValues {
  return Object.fromEntries(
    ORDER_FIELDS.map((f) => {
      const v = order[f.name as keyof Order] as string | null | undefined;
      if (!v) return [f.name, undefined];
      if (f.kind === 'date') return [f.name, dayjs(v, DATE)];
      if (f.kind === 'time') return [f.name, dayjs(v, TIME)];
      return [f.name, v];
    }),
  );
}

/** A form value as the API writes it ('' when empty). */
export function fromFormValue(field: OrderFieldSpec, value: FormValues[string]): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return value.format(field.kind === 'date' ? DATE : TIME);
}

/** Only the fields whose value differs from the order's (a cleared field is sent as null). */
export function changedFields(order: Order, values: FormValues): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  for (const field of EDITABLE_FIELDS) {
    const next = fromFormValue(field, values[field.name]);
    const before = (order[field.name as keyof Order] as string | null | undefined) ?? '';
    if (next !== before) changes[field.name] = next === '' ? null : next;
  }
  return changes;
}

/**
 * In the date and time pickers Enter confirms the picker and must not also submit the form: rc-picker
 * handles Enter before calling onKeyDown, so cancelling the native default stops only the implicit
 * submission (cancelling React's would make rc-picker skip its own Enter handling).
 */
const enterConfirmsOnly = (event: KeyboardEvent<HTMLElement>) => {
  if (event.key === 'Enter') event.nativeEvent.preventDefault();
};

/** What a field's control needs to know (the order screens' and the checkout's field tables both fit). */
export interface FieldControlSpec {
  kind: 'text' | 'date' | 'time' | 'textarea';
  maxLength: number;
  readOnly?: boolean;
}

/** The control of one field; Form.Item hands it id, value and onChange, passed on to the antd control. */
export function FieldInput({ field, ...control }: { field: FieldControlSpec } & Record<string, unknown>) {
  if (field.kind === 'date') {
    return (
      <DatePicker
        format="MMMM D, YYYY"
        style={{ width: '100%' }}
        onKeyDown={enterConfirmsOnly}
        {...control}
      />
    );
  }
  if (field.kind === 'time') {
    return (
      <TimePicker
        use12Hours
        format="h:mm A"
        minuteStep={5}
        style={{ width: '100%' }}
        onKeyDown={enterConfirmsOnly}
        {...control}
      />
    );
  }
  if (field.kind === 'textarea') return <Input.TextArea rows={3} maxLength={field.maxLength} {...control} />;
  return (
    <Input disabled={field.readOnly} readOnly={field.readOnly} maxLength={field.maxLength} {...control} />
  );
}

export function FieldItem({ field }: { field: OrderFieldSpec }) {
  return (
    <Form.Item
      name={field.name}
      label={field.label}
      rules={field.required ? [{ required: true, message: TEXTS.required }] : []}
      style={{ marginBottom: 12 }}
    >
      <FieldInput field={field} />
    </Form.Item>
  );
}

/** A card's fields read-only: label and value rows. */
export function DetailsTable({
  caption,
  fields,
  order,
}: {
  caption: string;
  fields: readonly OrderFieldSpec[];
  order: Order;
}) {
  return (
    <table style={{ width: '100%', borderCollapse: 'collapse' }}>
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {fields.map((f) => (
          <tr key={f.name} style={{ borderBottom: '1px solid #f0e8dd' }}>
            <th
              scope="row"
              style={{
                textAlign: 'left',
                padding: '6px 8px',
                width: '40%',
                fontWeight: 500,
                color: '#6b5d52',
              }}
            >
              {f.label}
            </th>
            <td style={{ padding: '6px 8px', whiteSpace: 'pre-line' }}>
              {showValue(f, order[f.name as keyof Order] as string | null)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
