import { http, signedIn, storedToken, type User, useAppDispatch } from '@decor/web-core';
import { Navigate, useLocation, useNavigate } from '@decor/web-core/router';
import { Alert, Spin } from '@decor/web-core/ui';
import { useEffect, useState } from 'react';

export const EXTERNAL_LOGIN_FAILED = 'Something went wrong while logging in.';

/**
 * /callback (spec §2): after the accounting system's sign-in, exchanges the query string for an access
 * token and the user, stores the user and goes home.
 */
export default function Callback() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [failed, setFailed] = useState(false);
  const [token] = useState(() => storedToken());

  useEffect(() => {
    if (!token) return;
    let active = true;
    http
      .get<{ result: User | { user: User } }>(`/auth/accessToken${search}`)
      .then((answer) => {
        if (!active) return;
        const result = answer.data.result;
        const user = 'user' in result ? result.user : result;
        dispatch(signedIn({ user, token: storedToken() ?? token }));
        navigate('/', { replace: true });
      })
      .catch(() => {
        if (!active) return;
        sessionStorage.clear();
        setFailed(true);
      });
    return () => {
      active = false;
    };
  }, [token, search, dispatch, navigate]);

  if (!token) return <Navigate to="/" replace />;
  if (failed) return <Alert type="error" showIcon title={EXTERNAL_LOGIN_FAILED} style={{ margin: 24 }} />;
  return <Spin style={{ margin: 48 }} />;
}
