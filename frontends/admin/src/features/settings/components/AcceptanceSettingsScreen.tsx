import type { AcceptanceSettings, AcceptanceSettingsChange } from '@decor/contracts/rules';
import { isApiError, isSuperadmin, useAppSelector } from '@decor/web-core';
import { Alert, Button, Flex, Loading } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { Form, Input, InputNumber, Select, Typography } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { useGetAcceptanceSettingsQuery, useSaveAcceptanceSettingsMutation } from '../api/settings-api';
import { SETTINGS_TEXTS as T } from '../texts';

type DepositKind = 'percent' | 'amount' | 'none';

interface Values {
  kind: DepositKind;
  depositPercent?: number;
  depositAmount?: number;
  validityDays: number;
  agreementText: string;
}

const kindOf = (s: AcceptanceSettings): DepositKind =>
  s.depositAmount !== undefined ? 'amount' : s.depositPercent !== undefined ? 'percent' : 'none';

/** The form's values as the PUT takes them: one deposit rule, or none. */
export function toChange(values: Values): AcceptanceSettingsChange {
  return {
    ...(values.kind === 'percent' ? { depositPercent: values.depositPercent ?? 0 } : {}),
    ...(values.kind === 'amount' ? { depositAmount: values.depositAmount ?? 0 } : {}),
    validityDays: values.validityDays,
    agreementText: values.agreementText,
  };
}

/**
 * /admin/settings/acceptance (issue 30): the deposit (a percentage, a fixed amount or none), how long
 * an estimate can be accepted and the rental agreement with its version. Staff read; the superadmin
 * saves (the server refuses anyone else too).
 */
export function AcceptanceSettingsScreen() {
  const canSave = useAppSelector((s) => isSuperadmin(s.session.user?.permissions));
  const { data, isLoading, isError } = useGetAcceptanceSettingsQuery();
  const [save, { isLoading: saving }] = useSaveAcceptanceSettingsMutation();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; reason?: string } | null>(null);

  if (isLoading) return <Loading label={T.loading} size="large" style={{ display: 'block', margin: 48 }} />;
  const heading = (
    <Typography.Title level={1} id="settings-title" style={{ margin: 0, fontSize: 30 }}>
      {T.title}
    </Typography.Title>
  );
  if (isError || !data) {
    return (
      <Flex vertical gap={16} style={{ padding: 'clamp(12px, 3vw, 32px)' }}>
        {heading}
        <Alert type="error" showIcon role="alert" title={T.loadError} />
      </Flex>
    );
  }

  const submit = async (values: Values) => {
    setOutcome(null);
    try {
      await save(toChange(values)).unwrap();
      setOutcome({ ok: true, text: T.saved });
    } catch (failed) {
      setOutcome({ ok: false, text: T.saveError, reason: isApiError(failed) ? failed.message : undefined });
    }
  };

  const required = [{ required: true, message: T.required }];
  return (
    <section aria-labelledby="settings-title" style={{ padding: 'clamp(12px, 3vw, 32px)', maxWidth: 880 }}>
      <Flex vertical gap={16}>
        {heading}
        <p style={{ margin: 0 }}>{T.intro}</p>
        {canSave ? null : <Alert type="info" showIcon title={T.readOnly} />}
        {outcome ? (
          <Alert
            type={outcome.ok ? 'success' : 'error'}
            showIcon
            role={outcome.ok ? 'status' : 'alert'}
            title={outcome.text}
            description={outcome.reason}
          />
        ) : null}
        <Card>
          <Form<Values>
            form={form}
            layout="vertical"
            requiredMark={false}
            disabled={!canSave}
            initialValues={{
              kind: kindOf(data),
              depositPercent: data.depositPercent,
              depositAmount: data.depositAmount,
              validityDays: data.validityDays,
              agreementText: data.agreementText,
            }}
            onFinish={(values) => void submit(values)}
          >
            <Form.Item name="kind" label={T.deposit}>
              <Select<DepositKind>
                style={{ maxWidth: 320 }}
                options={[
                  { value: 'percent', label: T.depositPercent },
                  { value: 'amount', label: T.depositAmount },
                  { value: 'none', label: T.depositNone },
                ]}
              />
            </Form.Item>
            {kind === 'percent' ? (
              <Form.Item name="depositPercent" label={T.percent} rules={required}>
                <InputNumber min={0} max={100} precision={2} suffix="%" style={{ width: 200 }} />
              </Form.Item>
            ) : null}
            {kind === 'amount' ? (
              <Form.Item name="depositAmount" label={T.amount} rules={required}>
                <InputNumber min={0} precision={2} prefix="$" style={{ width: 200 }} />
              </Form.Item>
            ) : null}
            <Form.Item name="validityDays" label={T.validityDays} rules={required}>
              <InputNumber min={1} max={365} precision={0} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item
              name="agreementText"
              label={T.agreementText}
              rules={[{ required: true, whitespace: true, message: T.required }]}
              extra={
                <span data-testid="agreement-version">
                  {T.version(data.agreementVersion)} {T.versionNote}
                </span>
              }
            >
              <Input.TextArea rows={12} maxLength={50_000} />
            </Form.Item>
            {canSave ? (
              <Button type="primary" htmlType="submit" loading={saving}>
                {T.save}
              </Button>
            ) : null}
          </Form>
        </Card>
      </Flex>
    </section>
  );
}
