import {
  type ApiError,
  http,
  isCustomer,
  isStaff,
  signedIn,
  signIn,
  storedToken,
  useAppDispatch,
  validateSession,
} from '@decor/web-core';
import { Button } from '@decor/web-core/ui';
import { Form, Input, Modal, Typography } from '@decor/web-core/ui-forms';
import { useEffect, useRef, useState } from 'react';
import { FormStatus, type FormStatusValue } from '../../../shared/FormStatus';

export const LOGIN_TEXTS = {
  title: 'Welcome',
  emailRequired: 'Please provide a valid email address',
  required: 'This field is required',
  success: 'Login Successful!',
  forbidden: 'Incorrect username or password',
  failure: 'An error occurred while attempting to log in.',
  redirecting: 'Re-directing to Quickbooks...',
  resetSent: 'If an account exists for this e-mail, a link to reset your password is on its way.',
} as const;

/** Where staff go to sign in to the accounting system (a seam for tests: jsdom cannot navigate). */
export const externalSignIn = { go: (url: string) => window.location.assign(url) };

/** Spec §4: 'Login Successful!' and the modal closes 500 ms later. */
export const CLOSE_AFTER_MS = 500;

interface Values {
  email: string;
  password: string;
}

export default function LoginModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<FormStatusValue>({ kind: 'idle' });
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const onFinish = async ({ email, password }: Values) => {
    setBusy(true);
    setStatus({ kind: 'idle' });
    try {
      const answer = await signIn(email.trim(), password);
      const permissions = answer.permissions ?? answer.user.permissions;
      if (!isCustomer(permissions) && isStaff(permissions) && answer.redirecturl) {
        setStatus({ kind: 'info', text: LOGIN_TEXTS.redirecting });
        dispatch(signedIn({ user: answer.user, token: storedToken() ?? answer.token }));
        externalSignIn.go(answer.redirecturl);
        return;
      }
      dispatch(signedIn({ user: answer.user, token: storedToken() ?? answer.token }));
      // The session user carries the active cart: load it as a page load would.
      void dispatch(validateSession());
      setStatus({ kind: 'success', text: LOGIN_TEXTS.success });
      closeTimer.current = setTimeout(() => {
        form.resetFields();
        setStatus({ kind: 'idle' });
        onClose();
      }, CLOSE_AFTER_MS);
    } catch (error) {
      const status = (error as ApiError).status;
      setStatus({ kind: 'error', text: status === 403 ? LOGIN_TEXTS.forbidden : LOGIN_TEXTS.failure });
    } finally {
      setBusy(false);
    }
  };

  const forgotPassword = async () => {
    try {
      const { email } = await form.validateFields(['email']);
      await http.post('/send/reset', { email: email.trim() }).catch(() => undefined);
    } catch {
      form.focusField('email');
      return;
    }
    // Spec §4: a reset request always reports success.
    setStatus({ kind: 'info', text: LOGIN_TEXTS.resetSent });
  };

  return (
    <Modal open={open} title={LOGIN_TEXTS.title} onCancel={onClose} footer={null} destroyOnHidden width={420}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onFinishFailed={({ errorFields }) => {
          const first = errorFields[0];
          if (first) form.focusField(first.name);
        }}
        validateMessages={{ required: LOGIN_TEXTS.required }}
        disabled={busy}
      >
        <Form.Item
          label="Email"
          name="email"
          rules={[
            { required: true, message: LOGIN_TEXTS.emailRequired },
            { type: 'email', message: LOGIN_TEXTS.emailRequired },
          ]}
        >
          <Input autoComplete="username" autoFocus inputMode="email" />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[{ required: true }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <FormStatus status={status} />
        <Button type="primary" htmlType="submit" block loading={busy}>
          Login
        </Button>
        <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0, textAlign: 'center' }}>
          <Button type="link" onClick={forgotPassword}>
            Forgot your password?
          </Button>
        </Typography.Paragraph>
      </Form>
    </Modal>
  );
}
