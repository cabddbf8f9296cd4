import { QboSessionBanner } from '@decor/web-core';
import { Alert, Button } from '@decor/web-core/ui';
import { Modal } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import type { Company, SiteUser } from '../api/types';
import { useUpdateCompanyMutation, useUpdateUserMutation } from '../api/users-api';
import { errorText, isQboExpired, USERS_TEXTS } from '../texts';
import { type CreateKind, UserForm } from './UserForms';

type Values = Record<string, string | undefined>;

const asValues = (record: object, keys: readonly string[]): Values =>
  Object.fromEntries(
    keys.map((k) => [k, ((record as Record<string, unknown>)[k] as string | null | undefined) ?? '']),
  );

const USER_KEYS = ['ownCompany', 'displayName', 'email', 'firstName', 'lastName', 'phone'] as const;
const ADMIN_KEYS = ['email', 'firstName', 'lastName', 'phone'] as const;
const COMPANY_KEYS = ['name', 'street', 'city', 'state', 'zipCode', 'phone'] as const;

/** Only what changed (trimmed); nothing when nothing did. */
export function changedFields(before: Values, after: Values, keys: readonly string[]): Values {
  const changes: Values = {};
  for (const key of keys) {
    const next = (after[key] ?? '').trim();
    if (next !== (before[key] ?? '').trim()) changes[key] = next;
  }
  return changes;
}

/**
 * Edit a user's profile or a company's details (PUT /user/{id}, PUT /company/{id}): the create form's
 * fields and rules, filled in; only the changed fields are sent. The expired-QuickBooks-session notice
 * shows here like in the create and import dialogs.
 */
export function EditDialog(
  props: { open: boolean; onClose: () => void } & (
    | { kind: 'user'; record: SiteUser }
    | { kind: 'company'; record: Company }
  ),
) {
  const { open, onClose } = props;
  const [updateUser, userCall] = useUpdateUserMutation();
  const [updateCompany, companyCall] = useUpdateCompanyMutation();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const busy = userCall.isLoading || companyCall.isLoading;

  const formKind: CreateKind =
    props.kind === 'company' ? 'company' : props.record.permissions === 'customer' ? 'customer' : 'admin';
  const keys = formKind === 'company' ? COMPANY_KEYS : formKind === 'customer' ? USER_KEYS : ADMIN_KEYS;
  const initialValues = asValues(props.record, keys);

  const close = () => {
    setOutcome(null);
    onClose();
  };

  const submit = async (values: Values) => {
    setOutcome(null);
    const changes = changedFields(initialValues, values, keys);
    if (Object.keys(changes).length === 0) {
      close();
      return;
    }
    try {
      if (props.kind === 'company') await updateCompany({ id: props.record.id, changes }).unwrap();
      else await updateUser({ id: props.record.id, changes }).unwrap();
      setOutcome({
        ok: true,
        text: props.kind === 'company' ? USERS_TEXTS.companyUpdated : USERS_TEXTS.userUpdated,
      });
    } catch (failure) {
      setOutcome(isQboExpired(failure) ? null : { ok: false, text: errorText(failure) });
    }
  };

  const title = props.kind === 'company' ? USERS_TEXTS.editCompany : USERS_TEXTS.editUser;
  return (
    <Modal
      open={open}
      title={title}
      footer={null}
      onCancel={close}
      destroyOnHidden
      mask={{ closable: !busy }}
    >
      <QboSessionBanner />
      {outcome?.ok ? (
        <>
          <Alert type="success" showIcon role="status" title={outcome.text} style={{ marginBottom: 16 }} />
          <Button type="primary" onClick={close}>
            {USERS_TEXTS.done}
          </Button>
        </>
      ) : (
        <UserForm
          kind={formKind}
          busy={busy}
          initialValues={initialValues}
          backLabel={USERS_TEXTS.cancel}
          onBack={close}
          onSubmit={(values) => void submit(values)}
        >
          {outcome ? (
            <Alert type="error" showIcon role="alert" title={outcome.text} style={{ marginBottom: 16 }} />
          ) : null}
        </UserForm>
      )}
    </Modal>
  );
}
