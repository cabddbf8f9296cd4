import { http } from '@decor/web-core';
import { Alert, Button } from '@decor/web-core/ui';
import { useState } from 'react';
import { SYNC_TEXTS } from '../texts';

/**
 * Bull Board is a page of its own, which a browser opens without our Authorization header: the
 * button first asks for a short, HttpOnly board session (a cookie for /api/admin/queues only), then
 * shows the board in the tab it opened at once (opened synchronously, so no popup blocker stops it).
 */
export function QueueDashboardButton() {
  const [failed, setFailed] = useState(false);
  const open = async () => {
    setFailed(false);
    const tab = window.open('', '_blank');
    try {
      const answer = await http.post<{ result: { url: string } }>('/qbo/board-session');
      if (tab) tab.location.href = answer.data.result.url;
      else window.location.assign(answer.data.result.url);
    } catch {
      tab?.close();
      setFailed(true);
    }
  };
  return (
    <>
      <Button type="link" onClick={() => void open()}>
        {SYNC_TEXTS.queueDashboard}
      </Button>
      {failed ? <Alert type="error" showIcon title={SYNC_TEXTS.queueDashboardFailed} /> : null}
    </>
  );
}
