import {
  EVENT_FIELD_SPECS,
  type EventDetails,
  formLabel,
  type OrderFieldSpec,
  WILL_CALL_FIELD_SPECS,
  type WillCall,
} from '@decor/contracts/rules';
import { useAppSelector } from '@decor/web-core';
import { Navigate, useLocation, useNavigate } from '@decor/web-core/router';
import { Button } from '@decor/web-core/ui';
import { Collapse, type Dayjs, dayjs } from '@decor/web-core/ui-data';
import { Form } from '@decor/web-core/ui-forms';
import { FieldInput } from '@decor/web-orders/fields';
import type { CheckoutState } from '../../../shared/cart/checkout-state';
import { TEXTS } from '../../../texts';

const DATE = 'YYYY-MM-DD';
const TIME = 'HH:mm';

type FormValues = Record<string, string | Dayjs | null | undefined>;

function toForm(values: Record<string, string | undefined>, fields: readonly OrderFieldSpec[]): FormValues {
  return Object.fromEntries(
    fields.map((f) => {
      const v = values[f.name];
      if (!v) return [f.name, undefined];
      if (f.kind === 'date') return [f.name, dayjs(v, DATE)];
      if (f.kind === 'time') return [f.name, dayjs(v, TIME)];
      return [f.name, v];
    }),
  );
}

function fromForm(values: FormValues, fields: readonly OrderFieldSpec[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'string') out[f.name] = v.trim();
    else out[f.name] = v.format(f.kind === 'date' ? DATE : TIME);
  }
  return out;
}

/** Each field's limit is the server's (contracts' fields table), so the form never sends what it refuses. */
const control = (field: OrderFieldSpec) => ({
  kind: field.kind,
  maxLength: field.maxLength,
  readOnly: field.readOnly,
});

const item = (field: OrderFieldSpec) => (
  <Form.Item
    key={field.name}
    name={field.name}
    label={formLabel(field)}
    rules={field.required ? [{ required: true, message: TEXTS.required }] : []}
  >
    <FieldInput field={control(field)} />
  </Form.Item>
);

/** /checkout/event: Event Details and the collapsible Will Call Order (spec §2); data travels in navigation state. */
export function EventForm({ activeCartId }: { activeCartId: string | undefined }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const company = useAppSelector((s) => s.session.user?.ownCompany ?? '');
  const carried = (location.state ?? null) as CheckoutState | null;
  const cartId = carried?.cartId ?? activeCartId;
  if (!cartId) return <Navigate to="/checkout/cart" replace />;

  const initial: FormValues = {
    ...toForm({ ...carried?.event }, EVENT_FIELD_SPECS),
    ...toForm({ ...carried?.willCall }, WILL_CALL_FIELD_SPECS),
    customerName: company,
    willCallCustomerName: company,
  };

  const onFinish = (values: FormValues) => {
    const event = {
      ...fromForm(values, EVENT_FIELD_SPECS),
      customerName: company,
    } as unknown as EventDetails;
    const willCall = {
      ...fromForm(values, WILL_CALL_FIELD_SPECS),
      willCallCustomerName: company,
    } as WillCall;
    const state: CheckoutState = { cartId, event, willCall };
    navigate('/checkout/summary', { state });
  };

  return (
    <section className="page" style={{ maxWidth: 880 }} aria-labelledby="event-title">
      <h1 id="event-title" style={{ marginTop: 0 }}>
        Event Details
      </h1>
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={onFinish}
        onFinishFailed={({ errorFields }) => {
          const first = errorFields[0];
          if (first) form.focusField(first.name);
        }}
        requiredMark={false}
      >
        <div
          style={{
            display: 'grid',
            gap: '0 20px',
            gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 260px), 1fr))',
          }}
        >
          {EVENT_FIELD_SPECS.filter((f) => f.kind !== 'textarea').map(item)}
        </div>
        {EVENT_FIELD_SPECS.filter((f) => f.kind === 'textarea').map(item)}
        <Collapse
          style={{ marginBottom: 24 }}
          items={[
            {
              key: 'will-call',
              label: 'Will Call Order',
              forceRender: true,
              children: (
                <div
                  style={{
                    display: 'grid',
                    gap: '0 20px',
                    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 220px), 1fr))',
                  }}
                >
                  {WILL_CALL_FIELD_SPECS.map(item)}
                </div>
              ),
            },
          ]}
        />
        <Button onClick={() => navigate('/checkout/cart')} style={{ marginRight: 12 }}>
          Back
        </Button>
        <Button type="primary" htmlType="submit" size="large">
          Go To Summary
        </Button>
      </Form>
    </section>
  );
}
