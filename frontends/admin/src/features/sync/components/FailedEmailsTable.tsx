import { FAILED_EMAIL_TEXTS, type FailedEmail } from '@decor/web-core';
import { Alert, Button } from '@decor/web-core/ui';
import { Card, Table, type TableColumnsType } from '@decor/web-core/ui-data';
import {
  useGetEmailQueueQuery,
  useGetFailedEmailsQuery,
  useReplayFailedEmailMutation,
} from '../../../shared/api/sync/sync-api';
import { errorText, formatWhen } from '../texts';
import { TABLE_PAGINATION } from './table';
import { traceColumn } from './trace-column';

/**
 * E-mails SMTP never took (a day of retries ran out, or the server refused them), with Replay
 * (POST …/replay, then refetch); the title tells how many wait for a retry meanwhile (SMTP down).
 */
export function FailedEmailsTable({ pollingInterval }: { pollingInterval: number }) {
  const { data, error, isLoading } = useGetFailedEmailsQuery(undefined, { pollingInterval });
  const queue = useGetEmailQueueQuery(undefined, { pollingInterval });
  const [replay, replaying] = useReplayFailedEmailMutation();
  const busyId = replaying.isLoading ? replaying.originalArgs : undefined;
  const delayed = queue.data?.delayed ?? 0;

  const columns: TableColumnsType<FailedEmail> = [
    { title: 'Recipient', dataIndex: 'to' },
    { title: 'Subject', dataIndex: 'subject' },
    { title: 'Last error', dataIndex: 'error' },
    { title: 'Attempts', dataIndex: 'attemptsMade', align: 'right' },
    { title: 'Failed at', dataIndex: 'failedAt', render: (at: string | null) => formatWhen(at) },
    // The trace id to search in the trace viewer (npm start -- --tracing): the request, its retries.
    traceColumn,
    {
      title: 'Action',
      key: 'action',
      render: (_value, email) => (
        <Button
          size="small"
          loading={busyId === email.id}
          aria-label={`${FAILED_EMAIL_TEXTS.replay} ${email.subject} to ${email.to}`}
          onClick={() => void replay(email.id)}
        >
          {FAILED_EMAIL_TEXTS.replay}
        </Button>
      ),
    },
  ];

  return (
    <Card
      title={FAILED_EMAIL_TEXTS.title}
      extra={delayed > 0 ? <span role="status">{FAILED_EMAIL_TEXTS.retrying(delayed)}</span> : null}
    >
      {error ? <Alert type="error" showIcon title={errorText(error)} style={{ marginBottom: 12 }} /> : null}
      {replaying.error ? (
        <Alert
          type="error"
          showIcon
          title={errorText(replaying.error)}
          closable={{ onClose: () => replaying.reset(), 'aria-label': 'Dismiss' }}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Table<FailedEmail>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={data ?? []}
        loading={isLoading}
        // Not "none" before the list has come: the spinner alone says it is on its way.
        locale={{ emptyText: isLoading ? <span /> : FAILED_EMAIL_TEXTS.empty }}
        pagination={TABLE_PAGINATION}
        scroll={{ x: true }}
      />
    </Card>
  );
}
