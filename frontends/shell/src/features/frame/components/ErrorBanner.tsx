import { clearSessionError, useAppDispatch, useAppSelector } from '@decor/web-core';
import { Alert } from '@decor/web-core/ui';

/** Spec §2: a banner at the top of the main area when the session or the side navigation reports an error. */
export function ErrorBanner() {
  const dispatch = useAppDispatch();
  // Only what it shows: the session and the categories change often, their errors rarely.
  const sessionError = useAppSelector((s) => s.session.error);
  const sessionDetail = useAppSelector((s) => s.session.errorDetail);
  const sideNavError = useAppSelector((s) => s.sideNav.error);
  const sideNavDetail = useAppSelector((s) => s.sideNav.errorDetail);
  const messages = [
    sessionError ? (sessionDetail ?? 'An error occurred') : null,
    sideNavError ? (sideNavDetail ?? 'An error occurred') : null,
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
            sessionError && message === sessionDetail
              ? { onClose: () => dispatch(clearSessionError()), 'aria-label': 'Dismiss' }
              : false
          }
        />
      ))}
    </div>
  );
}
