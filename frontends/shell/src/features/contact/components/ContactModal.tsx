import {
  CONTACT_HONEYPOT,
  CONTACT_LABELS,
  CONTACT_MAX_LENGTH,
  CONTACT_REQUIRED,
  CONTACT_TEXTS,
  type ContactField,
  contactFieldProblem,
} from '@decor/contracts/rules';
import { type ApiError, http, SUCCESS_BANNER_MS, useAppSelector } from '@decor/web-core';
import { Button } from '@decor/web-core/ui';
import { DatePicker, type Dayjs, dayjs } from '@decor/web-core/ui-dates';
import { Form, Input, Modal } from '@decor/web-core/ui-forms';
import { useEffect, useRef, useState } from 'react';
import { FormStatus, type FormStatusValue } from '../../../shared/FormStatus';

/** The success banner's time (spec §9); then the form closes. */
export const CLOSE_AFTER_SUCCESS_MS = SUCCESS_BANNER_MS;

interface Values {
  name?: string;
  email?: string;
  phone?: string;
  eventDate?: Dayjs | null;
  message?: string;
  [CONTACT_HONEYPOT]?: string;
}

const label = (field: ContactField) =>
  CONTACT_REQUIRED.includes(field) ? `${CONTACT_LABELS[field]} (required)` : CONTACT_LABELS[field];

/** The same rule and texts as the server (@decor/contracts), checked before sending. */
const rule = (field: ContactField) => ({
  validator: async (_: unknown, value: string | undefined) => {
    const problem = contactFieldProblem(field, value);
    if (problem) throw new Error(problem);
  },
});

/** One key per message: a resend after a lost answer is not sent twice (the service's Idempotency-Key). */
const newKey = () => `contact.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 12)}`;

/** What the request carries: trimmed values, the date as YYYY-MM-DD, empty optional fields left out. */
function toBody(values: Values): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const text = dayjs.isDayjs(value)
      ? value.format('YYYY-MM-DD')
      : typeof value === 'string'
        ? value.trim()
        : '';
    if (text !== '') body[key] = text;
  }
  return body;
}

/** Spec §7 POST /send/info: the visitor's message to the staff, who answer by e-mail. */
export default function ContactModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const user = useAppSelector((s) => s.session.user);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<FormStatusValue>({ kind: 'idle' });
  const key = useRef(newKey());
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const onFinish = async (values: Values) => {
    setBusy(true);
    setStatus({ kind: 'idle' });
    try {
      await http.post('/send/info', toBody(values), { headers: { 'Idempotency-Key': key.current } });
      key.current = newKey();
      setStatus({ kind: 'success', text: CONTACT_TEXTS.sent });
      closeTimer.current = setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
    } catch (error) {
      const { status: code, message } = error as ApiError;
      // The server's own sentence for what the sender can fix (a field, the limit); else the form's.
      const text = code === 400 || code === 429 ? message : CONTACT_TEXTS.failed;
      setStatus({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  const text = (field: 'name' | 'email' | 'phone', autoComplete: string, extra: object = {}) => (
    <Form.Item label={label(field)} name={field} rules={[rule(field)]}>
      <Input autoComplete={autoComplete} maxLength={CONTACT_MAX_LENGTH[field]} {...extra} />
    </Form.Item>
  );

  return (
    <Modal
      open={open}
      title={CONTACT_TEXTS.title}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={520}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: user?.displayName, email: user?.email, phone: user?.phone ?? undefined }}
        onFinish={onFinish}
        onFinishFailed={({ errorFields }) => {
          const first = errorFields[0];
          if (first) form.focusField(first.name);
        }}
        disabled={busy || status.kind === 'success'}
      >
        {text('name', 'name')}
        {text('email', 'email', { inputMode: 'email' })}
        {text('phone', 'tel', { type: 'tel' })}
        <Form.Item label={label('eventDate')} name="eventDate">
          <DatePicker
            format="MMMM D, YYYY"
            style={{ width: '100%' }}
            disabledDate={(d) => d.isBefore(dayjs(), 'day')}
            // Enter confirms the typed date; it must not also send the form (rc-picker has handled it).
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.nativeEvent.preventDefault();
            }}
          />
        </Form.Item>
        <Form.Item label={label('message')} name="message" rules={[rule('message')]}>
          <Input.TextArea rows={5} maxLength={CONTACT_MAX_LENGTH.message} />
        </Form.Item>
        {/* The honeypot: out of sight, out of the tab order and of screen readers; only bots fill it. */}
        <div
          aria-hidden="true"
          style={{ position: 'absolute', left: -10_000, width: 1, height: 1, overflow: 'hidden' }}
        >
          <Form.Item label="Website (leave empty)" name={CONTACT_HONEYPOT}>
            <Input tabIndex={-1} autoComplete="off" />
          </Form.Item>
        </div>
        <FormStatus status={status} />
        <Button type="primary" htmlType="submit" block loading={busy}>
          Send
        </Button>
      </Form>
    </Modal>
  );
}
