import { http, storedToken, useAppDispatch, validateSession } from '@decor/web-core';
import { Navigate, useLocation, useNavigate } from '@decor/web-core/router';
import { Alert, Loading } from '@decor/web-core/ui';
import { useEffect, useRef, useState } from 'react';

export const EXTERNAL_LOGIN_FAILED = 'Something went wrong while logging in.';

/** What GET /auth/accessToken answers: QuickBooks is connected (its tokens stay on the server). */
export interface AccessTokenAnswer {
  result: { connected: true; realmId: string; companyName: string | null };
}

/**
 * /callback (spec §2): after the accounting system's sign-in, exchanges the query string for the
 * QuickBooks connection (GET /auth/accessToken{search}), then loads the signed-in user as on start
 * (GET /auth/jwt) and goes home. The session token was stored before leaving for QuickBooks.
 */
export default function Callback() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [failed, setFailed] = useState(false);
  const [token] = useState(() => storedToken());
  // QuickBooks' authorisation code is good once: exchange it once even when React runs the effect
  // twice (StrictMode), and let the latest run act on the outcome.
  const exchange = useRef<{ search: string; done: Promise<unknown> } | null>(null);

  useEffect(() => {
    if (!token) return;
    if (exchange.current?.search !== search) {
      exchange.current = {
        search,
        done: http
          .get<AccessTokenAnswer>(`/auth/accessToken${search}`)
          .then(() => dispatch(validateSession()).unwrap()),
      };
    }
    let active = true;
    exchange.current.done
      .then(() => {
        if (active) navigate('/', { replace: true });
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
  return <Loading label="Signing you in" style={{ margin: 48 }} />;
}
