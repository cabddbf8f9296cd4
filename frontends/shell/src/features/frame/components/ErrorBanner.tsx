import { clearSessionError, useAppDispatch, useAppSelector } from '@decor/web-core';
import { Alert } from '@decor/web-core/ui';

/** Spec §2: a banner at the top of the main area when the session or the side navigation reports an error. */
export function ErrorBanner() {
  const dispatch = useAppDispatch();
  const session = useAppSelector((s) => s.session);
  const sideNav = useAppSelector((s) => s.sideNav);
  const messages = [
    session.error ? (session.errorDetail ?? 'An error occurred') : null,
    sideNav.error ? (sideNav.errorDetail ?? 'An error occurred') : null,
  ].filter((m): m is string => m !== null);
  if (messages.length === 0) return null;
  return (
    <div role="alert" data-testid="error-banner">
      {messages.map((message) => (
        <Alert
          key={message}
          type="error"
          banner
          title={message}
          closable={
            session.error && message === session.errorDetail
              ? { onClose: () => dispatch(clearSessionError()), 'aria-label': 'Dismiss' }
              : false
          }
        />
      ))}
    </div>
  );
}
