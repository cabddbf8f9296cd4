import { PASSWORD_TOO_SHORT } from '@decor/contracts/rules';
import { type ApiError, http, TOKEN_KEY } from '@decor/web-core';
import { Link, useNavigate, useParams } from '@decor/web-core/router';
import { Alert, Button, Loading } from '@decor/web-core/ui';
import { Form, PasswordFields } from '@decor/web-core/ui-forms';
import { useEffect, useState } from 'react';

export const RESET_TEXTS = {
  title: 'Reset Your Password',
  required: 'This field is required',
  tooShort: PASSWORD_TOO_SHORT,
  mismatch: 'Passwords do not match',
  failure: 'An error occurred while resetting your password',
  success: 'Your password has been reset. You can log in with it now.',
} as const;

interface Values {
  password: string;
  confirm: string;
}

/**
 * /reset/{token} (spec §2): stores the link's token as the session token, asks the server whom it
 * belongs to, and shows the form. A link the server does not accept sends the visitor home.
 */
export default function Reset() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [owner, setOwner] = useState<{ email: string; id: string } | null>(null);
  const [status, setStatus] = useState<'idle' | 'saving' | 'done' | 'failed'>('idle');

  useEffect(() => {
    let active = true;
    sessionStorage.setItem(TOKEN_KEY, token);
    http
      .get<{ result: { email: string; id: string } }>('/auth/resetLink')
      .then((answer) => {
        if (active) setOwner(answer.data.result);
      })
      .catch(() => {
        if (!active) return;
        sessionStorage.clear();
        navigate('/', { replace: true });
      });
    return () => {
      active = false;
    };
  }, [token, navigate]);

  const onFinish = async ({ password }: Values) => {
    if (!owner) return;
    setStatus('saving');
    try {
      await http.put(`/user/${encodeURIComponent(owner.id)}`, { password });
      sessionStorage.clear();
      setStatus('done');
    } catch (error) {
      void (error as ApiError);
      setStatus('failed');
    }
  };

  if (!owner) return <Loading label="Checking the link" style={{ margin: 48 }} />;
  return (
    <div className="page" style={{ maxWidth: 460 }}>
      <h1>{RESET_TEXTS.title}</h1>
      <p>{owner.email}</p>
      {status === 'done' ? (
        <Alert type="success" showIcon title={RESET_TEXTS.success} action={<Link to="/">Home</Link>} />
      ) : (
        <Form<Values>
          layout="vertical"
          onFinish={onFinish}
          validateMessages={{ required: RESET_TEXTS.required }}
          disabled={status === 'saving'}
        >
          <PasswordFields mismatch={RESET_TEXTS.mismatch} />
          {status === 'failed' ? (
            <Alert type="error" showIcon title={RESET_TEXTS.failure} style={{ marginBottom: 16 }} />
          ) : null}
          <Button type="primary" htmlType="submit" loading={status === 'saving'}>
            Submit
          </Button>
        </Form>
      )}
    </div>
  );
}
