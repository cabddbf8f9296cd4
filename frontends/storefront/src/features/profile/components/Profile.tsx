import {
  type ApiError,
  isStaff,
  useAppSelector,
  useChangePasswordMutation,
  useChangeTruckingFeeMutation,
  useGetTruckingFeeQuery,
} from '@decor/web-core';
import { Alert, Button, Loading } from '@decor/web-core/ui';
import { Form, Input, InputNumber, PasswordFields } from '@decor/web-core/ui-forms';
import { useEffect, useState } from 'react';
import { SUCCESS_BANNER_MS, TEXTS } from '../../../texts';

type Outcome = { type: 'success' | 'error'; text: string } | null;

/** A form's outcome banner: a success goes away after SUCCESS_BANNER_MS (spec §9), an error stays. */
function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    if (outcome?.type !== 'success') return;
    const timer = setTimeout(() => setOutcome(null), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  return [outcome, setOutcome] as const;
}

function ChangePassword({ userId }: { userId: string }) {
  const [form] = Form.useForm<{ currentPassword: string; password: string; confirm: string }>();
  const [change, { isLoading }] = useChangePasswordMutation();
  const [outcome, setOutcome] = useOutcome();
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      validateMessages={{ required: TEXTS.required }}
      onFinish={async ({ currentPassword, password }) => {
        try {
          await change({ id: userId, password: password.trim(), currentPassword }).unwrap();
          form.resetFields();
          setOutcome({ type: 'success', text: TEXTS.passwordChanged });
        } catch (error) {
          // A wrong current password is said as such; anything else is the spec's text.
          const refused = (error as ApiError).status === 403;
          setOutcome({ type: 'error', text: refused ? (error as ApiError).message : TEXTS.profileError });
        }
      }}
    >
      <h2>Change Password</h2>
      <Form.Item label="Current Password" name="currentPassword" rules={[{ required: true }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <PasswordFields mismatch={TEXTS.passwordMismatch} trimmed />
      {outcome ? (
        <Alert type={outcome.type} showIcon title={outcome.text} style={{ marginBottom: 16 }} />
      ) : null}
      <Button type="primary" htmlType="submit" loading={isLoading}>
        Submit
      </Button>
    </Form>
  );
}

function ChangeTruckingFee() {
  const { data: fee, error, isLoading } = useGetTruckingFeeQuery();
  const [change, { isLoading: saving }] = useChangeTruckingFeeMutation();
  const [outcome, setOutcome] = useOutcome();
  if (isLoading) return <Loading label="Loading the trucking fee" />;
  if (error || !fee) {
    return (
      <Alert
        type="error"
        showIcon
        title={`${TEXTS.truckingFetchError}${(error as ApiError | undefined)?.message ?? ''}`}
      />
    );
  }
  return (
    <Form
      layout="vertical"
      style={{ maxWidth: 420 }}
      initialValues={{ value: fee.value }}
      validateMessages={{ required: TEXTS.required }}
      onFinish={async ({ value }: { value: number }) => {
        try {
          await change({ id: fee.id, value }).unwrap();
          setOutcome({ type: 'success', text: TEXTS.truckingChanged });
        } catch {
          setOutcome({ type: 'error', text: TEXTS.truckingChangeError });
        }
      }}
    >
      <h2>Change Trucking Fee</h2>
      <Form.Item label="Trucking fee" name="value" rules={[{ required: true }]}>
        <InputNumber min={0} max={1_000_000} step={5} precision={2} prefix="$" style={{ width: '100%' }} />
      </Form.Item>
      {outcome ? (
        <Alert type={outcome.type} showIcon title={outcome.text} style={{ marginBottom: 16 }} />
      ) : null}
      <Button type="primary" htmlType="submit" loading={saving}>
        Submit
      </Button>
    </Form>
  );
}

/** /profile (spec §2): name, e-mail, Change Password; staff also Change Trucking Fee. */
export default function Profile() {
  const user = useAppSelector((s) => s.session.user);
  if (!user) return null;
  return (
    <section className="page" aria-labelledby="profile-title">
      <h1 id="profile-title" style={{ marginTop: 0 }}>
        Profile
      </h1>
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '8px 16px' }}>
        <dt style={{ color: '#6b5d52' }}>Name</dt>
        <dd style={{ margin: 0 }}>{`${user.firstName} ${user.lastName}`.trim() || user.displayName}</dd>
        <dt style={{ color: '#6b5d52' }}>Email</dt>
        <dd style={{ margin: 0 }}>{user.email}</dd>
      </dl>
      <ChangePassword userId={user.id} />
      {isStaff(user.permissions) ? <ChangeTruckingFee /> : null}
    </section>
  );
}
