import { Alert, Button } from 'antd';
import { useEffect, useState } from 'react';
import { FALLBACK_MESSAGE, isApiError } from './http';
import {
  connectQuickBooks,
  dismissQboSession,
  QBO_TEXTS,
  renewQboSession,
  screenBannerHidden,
  screenBannerShown,
} from './qbo-session-slice';
import { useAppDispatch, useAppSelector } from './store';

/** Connect to QuickBooks (GET /qbo/connect, then the browser leaves): for a button's loading and error. */
export function useQboConnect() {
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const connect = async () => {
    setConnecting(true);
    setError(null);
    try {
      await connectQuickBooks();
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : FALLBACK_MESSAGE);
      setConnecting(false);
    }
  };
  return { connect, connecting, error };
}

/**
 * The QuickBooks session notice (spec orders §2, §4, §8): 'Your session with QuickBooks has expired…'
 * with 'Click here' (GET /qbo/get/renewToken), then the renewal's outcome; a failed renewal offers
 * Connect. Shown by a screen where staff work on synced data (placement 'screen', the default) and
 * by the shell's frame for staff ('frame'); the frame's steps aside while a screen shows its own.
 */
export function QboSessionBanner({ placement = 'screen' }: { placement?: 'screen' | 'frame' }) {
  const dispatch = useAppDispatch();
  const { expired, renewal, message, screenBanners } = useAppSelector((s) => s.qboSession);
  const { connect, connecting, error } = useQboConnect();

  useEffect(() => {
    if (placement !== 'screen') return;
    dispatch(screenBannerShown());
    return () => {
      dispatch(screenBannerHidden());
    };
  }, [placement, dispatch]);

  const showing = renewal === 'renewed' || renewal === 'failed' || expired;
  if (!showing || (placement === 'frame' && screenBanners > 0)) return null;
  const dismiss = { onClose: () => dispatch(dismissQboSession()), 'aria-label': 'Dismiss' };
  // Each state its own Alert (keys), so no button keeps the previous state's loading spinner.
  return (
    <section aria-label="QuickBooks session" data-testid={`qbo-session-banner-${placement}`}>
      {renewal === 'renewed' ? (
        <Alert
          key="renewed"
          type="success"
          showIcon
          banner={placement === 'frame'}
          title={message ?? QBO_TEXTS.renewed}
          closable={dismiss}
        />
      ) : renewal === 'failed' ? (
        <Alert
          key="failed"
          type="error"
          showIcon
          banner={placement === 'frame'}
          title={QBO_TEXTS.renewFailed}
          description={error ?? undefined}
          closable={dismiss}
          action={
            <Button size="small" loading={connecting} onClick={() => void connect()}>
              {QBO_TEXTS.connect}
            </Button>
          }
        />
      ) : (
        <Alert
          key="expired"
          type="warning"
          showIcon
          banner={placement === 'frame'}
          title={QBO_TEXTS.expired}
          action={
            <Button
              size="small"
              type="primary"
              loading={renewal === 'pending'}
              onClick={() => dispatch(renewQboSession())}
            >
              {QBO_TEXTS.clickHere}
            </Button>
          }
        />
      )}
    </section>
  );
}
