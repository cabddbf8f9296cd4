import { isSuperadmin, QboSessionBanner, useAppSelector } from '@decor/web-core';
import { Alert, Flex, Loading } from '@decor/web-core/ui';
import { Typography } from '@decor/web-core/ui-forms';
import { useDocumentVisible } from '../../../hooks/use-document-visible';
import { useGetQboStatusQuery } from '../../../shared/api/sync/sync-api';
import { errorText, SYNC_TEXTS } from '../texts';
import { ConnectionCard } from './ConnectionCard';
import { DeadLettersTable } from './DeadLettersTable';
import { FailedEmailsTable } from './FailedEmailsTable';
import { FailedJobsTable } from './FailedJobsTable';
import { QueueDashboardButton } from './QueueDashboardButton';
import { QueuesTable } from './QueuesTable';

/** How often the page asks again while it is visible. */
export const SYNC_POLL_MS = 3000;

/**
 * /admin/sync: the health of the QuickBooks synchronisation, refreshed live — the connection, the
 * queues, failed jobs (Retry), dead-lettered events (Replay) and failed e-mails (Replay).
 */
export function SyncHealth() {
  const visible = useDocumentVisible();
  const pollingInterval = visible ? SYNC_POLL_MS : 0;
  const permissions = useAppSelector((s) => s.session.user?.permissions);
  const status = useGetQboStatusQuery(undefined, { pollingInterval });

  return (
    <Flex vertical gap={16} style={{ padding: 'clamp(12px, 3vw, 32px)', width: '100%' }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {SYNC_TEXTS.title}
        </Typography.Title>
        {isSuperadmin(permissions) ? <QueueDashboardButton /> : null}
      </Flex>
      <QboSessionBanner />
      {status.error ? <Alert type="error" showIcon title={errorText(status.error)} /> : null}
      {status.data ? (
        <>
          <ConnectionCard status={status.data} onRenewed={() => void status.refetch()} />
          <QueuesTable queues={status.data.queues} />
        </>
      ) : status.isLoading ? (
        <Loading label="Loading" style={{ margin: 24 }} />
      ) : null}
      <FailedJobsTable pollingInterval={pollingInterval} />
      <DeadLettersTable pollingInterval={pollingInterval} />
      <FailedEmailsTable pollingInterval={pollingInterval} />
    </Flex>
  );
}
