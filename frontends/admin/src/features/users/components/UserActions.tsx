import { isStaff, isSuperadmin, useAppSelector } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Alert, Button, Flex } from '@decor/web-core/ui';
import { Modal } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import type { SiteUser } from '../api/types';
import { useDeleteUserMutation, useSendWelcomeEmailMutation, useUpdateUserMutation } from '../api/users-api';
import { errorText, USERS_TEXTS } from '../texts';
import { EditDialog } from './EditDialog';

type Outcome = { type: 'success' | 'error'; title: string; description?: string } | null;

/** The spec's words for a failure, with the server's own words beneath when they add something. */
const failed = (title: string, error: unknown): Outcome => {
  const said = errorText(error);
  return { type: 'error', title, ...(said !== title ? { description: said } : {}) };
};

/**
 * Actions on a user (spec §2, §4): Edit, Suspend / Enable (active to its opposite), delete after
 * confirming in a modal, resend the welcome e-mail. Only a superadmin suspends or deletes an admin; nobody
 * suspends or deletes themselves here.
 */
export function UserActions({ user }: { user: SiteUser }) {
  const navigate = useNavigate();
  const viewer = useAppSelector((s) => s.session.user);
  const [updateUser, updating] = useUpdateUserMutation();
  const [deleteUser, deleting] = useDeleteUserMutation();
  const [sendWelcome, sending] = useSendWelcomeEmailMutation();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const self = viewer?.id === user.id;
  const mayEdit = !isStaff(user.permissions) || isSuperadmin(viewer?.permissions);
  const mayManage = !self && mayEdit;

  const toggle = async () => {
    setOutcome(null);
    try {
      await updateUser({ id: user.id, changes: { active: !user.active } }).unwrap();
    } catch (error) {
      setOutcome(failed(USERS_TEXTS.suspendError, error));
    }
  };

  const remove = async () => {
    setOutcome(null);
    try {
      await deleteUser(user.id).unwrap();
      setConfirming(false);
      navigate('/admin/users', { replace: true });
    } catch (error) {
      setConfirming(false);
      setOutcome(failed(USERS_TEXTS.deleteError, error));
    }
  };

  const resend = async () => {
    setOutcome(null);
    try {
      const said = await sendWelcome(user.email).unwrap();
      setOutcome({ type: 'success', title: said ?? USERS_TEXTS.welcomeSent });
    } catch (error) {
      setOutcome({ type: 'error', title: errorText(error) });
    }
  };

  return (
    <>
      <Flex gap={8} wrap>
        {mayEdit ? <Button onClick={() => setEditing(true)}>{USERS_TEXTS.edit}</Button> : null}
        {mayManage ? (
          <Button onClick={() => void toggle()} loading={updating.isLoading} danger={user.active}>
            {user.active ? USERS_TEXTS.suspend : USERS_TEXTS.enable}
          </Button>
        ) : null}
        <Button onClick={() => void resend()} loading={sending.isLoading}>
          {USERS_TEXTS.resendWelcome}
        </Button>
        {mayManage ? (
          <Button danger type="primary" onClick={() => setConfirming(true)}>
            {USERS_TEXTS.delete}
          </Button>
        ) : null}
      </Flex>
      {outcome ? (
        <Alert
          type={outcome.type}
          showIcon
          role={outcome.type === 'error' ? 'alert' : 'status'}
          title={outcome.title}
          description={outcome.description}
          closable={{ onClose: () => setOutcome(null), 'aria-label': 'Dismiss' }}
          style={{ marginTop: 12 }}
        />
      ) : null}
      <EditDialog kind="user" record={user} open={editing} onClose={() => setEditing(false)} />
      <Modal
        open={confirming}
        title={USERS_TEXTS.deleteTitle}
        okText={USERS_TEXTS.delete}
        cancelText={USERS_TEXTS.cancel}
        okButtonProps={{ danger: true, loading: deleting.isLoading }}
        onCancel={() => setConfirming(false)}
        onOk={() => void remove()}
      >
        <p>{USERS_TEXTS.deleteQuestion(user.displayName || user.email)}</p>
      </Modal>
    </>
  );
}
