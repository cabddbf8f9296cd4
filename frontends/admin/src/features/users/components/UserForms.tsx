import type { NewCompany } from '@decor/contracts/rules';
import { Button, Flex } from '@decor/web-core/ui';
import { Form, type FormInstance, Input } from '@decor/web-core/ui-forms';
import type { ReactNode } from 'react';
import type { NewUser } from '../api/types';
import { LABELS, USERS_TEXTS, VALIDATE_MESSAGES } from '../texts';
import { ParentCompanySelect } from './ParentCompanySelect';

export type CreateKind = 'company' | 'customer' | 'admin';

type Values = Record<string, string | undefined>;

const required = { required: true, whitespace: true } as const;
const email = [
  { required: true, message: USERS_TEXTS.invalidEmail },
  { type: 'email' as const, message: USERS_TEXTS.invalidEmail },
];

const text = (values: Values, key: string) => (values[key] ?? '').trim();
const optional = (values: Values, key: string) => {
  const value = text(values, key);
  return value === '' ? {} : { [key]: value };
};

/** The form's values as the POST body (spec §3 forms; text trimmed, optional phone left out when empty). */
export function companyBody(values: Values): NewCompany {
  const name = text(values, 'name');
  return {
    name,
    displayName: name,
    street: text(values, 'street'),
    city: text(values, 'city'),
    state: text(values, 'state'),
    zipCode: text(values, 'zipCode'),
    ...optional(values, 'phone'),
  };
}

export function customerBody(values: Values): NewUser {
  return {
    permissions: 'customer',
    CompanyId: text(values, 'CompanyId'),
    ownCompany: text(values, 'ownCompany'),
    displayName: text(values, 'displayName'),
    email: text(values, 'email'),
    firstName: text(values, 'firstName'),
    lastName: text(values, 'lastName'),
    phone: text(values, 'phone'),
  };
}

export function adminBody(values: Values): NewUser {
  return {
    permissions: 'admin',
    email: text(values, 'email'),
    firstName: text(values, 'firstName'),
    lastName: text(values, 'lastName'),
    ...optional(values, 'phone'),
  };
}

function Fields({ kind, form, editing }: { kind: CreateKind; form: FormInstance; editing: boolean }) {
  if (kind === 'company') {
    return (
      <>
        <Form.Item label={LABELS.company} name="name" rules={[required]}>
          <Input autoComplete="organization" maxLength={100} />
        </Form.Item>
        <Form.Item label={LABELS.street} name="street" rules={[required]}>
          <Input autoComplete="address-line1" maxLength={200} />
        </Form.Item>
        <Form.Item label={LABELS.city} name="city" rules={[required]}>
          <Input autoComplete="address-level2" maxLength={100} />
        </Form.Item>
        <Form.Item label={LABELS.state} name="state" rules={[required]}>
          <Input autoComplete="address-level1" maxLength={100} />
        </Form.Item>
        <Form.Item label={LABELS.zipCode} name="zipCode" rules={[required]}>
          <Input autoComplete="postal-code" maxLength={20} />
        </Form.Item>
        <Form.Item label={LABELS.phone} name="phone">
          <Input type="tel" autoComplete="tel" maxLength={30} />
        </Form.Item>
      </>
    );
  }
  return (
    <>
      {kind === 'customer' ? (
        <>
          {editing ? null : (
            <Form.Item
              label={LABELS.parentCompany}
              name="CompanyId"
              rules={[{ required: true, message: USERS_TEXTS.parentCompanyRequired }]}
            >
              <ParentCompanySelect
                onPicked={(company) => {
                  if (!text(form.getFieldsValue(['ownCompany']), 'ownCompany')) {
                    form.setFieldValue('ownCompany', company.displayName || company.name);
                  }
                }}
              />
            </Form.Item>
          )}
          <Form.Item label={LABELS.company} name="ownCompany" rules={[required]}>
            <Input autoComplete="organization" maxLength={100} />
          </Form.Item>
          <Form.Item label={LABELS.displayName} name="displayName" rules={[required]}>
            <Input maxLength={100} />
          </Form.Item>
        </>
      ) : null}
      <Form.Item label={LABELS.email} name="email" rules={email}>
        <Input inputMode="email" autoComplete="email" maxLength={254} />
      </Form.Item>
      <Form.Item label={LABELS.firstName} name="firstName" rules={[required]}>
        <Input autoComplete="given-name" maxLength={100} />
      </Form.Item>
      <Form.Item label={LABELS.lastName} name="lastName" rules={[required]}>
        <Input autoComplete="family-name" maxLength={100} />
      </Form.Item>
      <Form.Item label={LABELS.phone} name="phone" rules={kind === 'customer' ? [required] : []}>
        <Input type="tel" autoComplete="tel" maxLength={30} />
      </Form.Item>
    </>
  );
}

/**
 * One of the §3 forms (company, customer or admin) with the §5 rules: required fields say 'This field
 * is required' unless the spec gives their own words; the first invalid field is focused; Enter submits.
 */
export function UserForm({
  kind,
  busy,
  onSubmit,
  onBack,
  backLabel = USERS_TEXTS.back,
  initialValues,
  children,
}: {
  kind: CreateKind;
  busy: boolean;
  onSubmit: (values: Values) => void;
  onBack: () => void;
  backLabel?: string;
  /** Editing: the record's current values (the parent company is then kept as it is). */
  initialValues?: Values;
  /** Shown above the buttons (the outcome of the last attempt). */
  children?: ReactNode;
}) {
  const [form] = Form.useForm();
  const editing = initialValues !== undefined;
  return (
    <Form
      form={form}
      layout="vertical"
      name={`${editing ? 'edit' : 'create'}-${kind}`}
      initialValues={initialValues}
      validateMessages={VALIDATE_MESSAGES}
      requiredMark
      onFinish={onSubmit}
      onFinishFailed={({ errorFields }) => {
        const first = errorFields[0];
        if (first) form.focusField(first.name);
      }}
    >
      <Fields kind={kind} form={form} editing={editing} />
      {children}
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onBack} disabled={busy}>
          {backLabel}
        </Button>
        <Button type="primary" htmlType="submit" loading={busy}>
          {USERS_TEXTS.submit}
        </Button>
      </Flex>
    </Form>
  );
}
