import { isSuperadmin, QboSessionBanner, useAppSelector } from '@decor/web-core';
import { Alert, Button, Flex } from '@decor/web-core/ui';
import { Modal, Typography } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { useCreateCompanyMutation, useCreateUserMutation } from '../api/users-api';
import { errorText, isQboExpired, USERS_TEXTS } from '../texts';
import { adminBody, type CreateKind, companyBody, customerBody, UserForm } from './UserForms';

type Step = 'choose' | CreateKind | 'done';

const CHOICES: { kind: CreateKind; label: string }[] = [
  { kind: 'company', label: USERS_TEXTS.company },
  { kind: 'customer', label: USERS_TEXTS.customer },
  { kind: 'admin', label: USERS_TEXTS.admin },
];

/**
 * The create-user dialog (spec §2, §4): choose Company, Customer or Admin (admins only for a
 * superadmin, who alone may create them), then the form; success 'A new user has been added!'.
 */
export function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const superadmin = useAppSelector((s) => isSuperadmin(s.session.user?.permissions));
  const [step, setStep] = useState<Step>('choose');
  const [error, setError] = useState<string | null>(null);
  const [createUser, userCall] = useCreateUserMutation();
  const [createCompany, companyCall] = useCreateCompanyMutation();
  const busy = userCall.isLoading || companyCall.isLoading;

  const close = () => {
    setStep('choose');
    setError(null);
    onClose();
  };

  const submit = async (kind: CreateKind, values: Record<string, string | undefined>) => {
    setError(null);
    try {
      if (kind === 'company') await createCompany(companyBody(values)).unwrap();
      else await createUser(kind === 'customer' ? customerBody(values) : adminBody(values)).unwrap();
      setStep('done');
    } catch (failure) {
      // An expired QuickBooks session is told by its own notice (with Click here), not as an error.
      setError(isQboExpired(failure) ? null : errorText(failure));
    }
  };

  return (
    <Modal
      open={open}
      title={USERS_TEXTS.createTitle}
      footer={null}
      onCancel={close}
      destroyOnHidden
      mask={{ closable: !busy }}
    >
      <QboSessionBanner />
      {step === 'choose' ? (
        <>
          <Typography.Paragraph>{USERS_TEXTS.chooseType}</Typography.Paragraph>
          <Flex gap={8} wrap>
            {CHOICES.filter((c) => c.kind !== 'admin' || superadmin).map((c) => (
              <Button key={c.kind} size="large" onClick={() => setStep(c.kind)}>
                {c.label}
              </Button>
            ))}
          </Flex>
        </>
      ) : step === 'done' ? (
        <>
          <Alert
            type="success"
            showIcon
            role="status"
            title={USERS_TEXTS.userAdded}
            style={{ marginBottom: 16 }}
          />
          <Flex justify="flex-end">
            <Button type="primary" onClick={close}>
              {USERS_TEXTS.done}
            </Button>
          </Flex>
        </>
      ) : (
        <UserForm
          key={step}
          kind={step}
          busy={busy}
          onSubmit={(values) => void submit(step, values)}
          onBack={() => {
            setError(null);
            setStep('choose');
          }}
        >
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
          ) : null}
        </UserForm>
      )}
    </Modal>
  );
}
