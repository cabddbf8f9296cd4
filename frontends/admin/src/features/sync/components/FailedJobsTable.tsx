import { Alert, Button } from '@decor/web-core/ui';
import { Card, Table, type TableColumnsType, Tag } from '@decor/web-core/ui-data';
import { useGetFailedJobsQuery, useRetryFailedJobMutation } from '../../../shared/api/sync/sync-api';
import type { FailedJob } from '../../../shared/api/sync/types';
import { errorText, formatWhen, SYNC_TEXTS } from '../texts';
import { TABLE_PAGINATION } from './table';
import { traceColumn } from './trace-column';

const keyOf = (job: Pick<FailedJob, 'queue' | 'id'>) => `${job.queue}/${job.id}`;

/** Jobs that used up their attempts, with QuickBooks' message and Retry (POST …/retry, then refetch). */
export function FailedJobsTable({ pollingInterval }: { pollingInterval: number }) {
  const { data, error, isLoading } = useGetFailedJobsQuery(undefined, { pollingInterval });
  const [retry, retrying] = useRetryFailedJobMutation();
  const busyKey = retrying.isLoading && retrying.originalArgs ? keyOf(retrying.originalArgs) : null;

  const columns: TableColumnsType<FailedJob> = [
    {
      title: 'Record',
      key: 'record',
      render: (_value, job) => (
        <>
          <Tag>{job.kind}</Tag> {job.label}
        </>
      ),
    },
    { title: 'QuickBooks message', dataIndex: 'message' },
    { title: 'Attempts', dataIndex: 'attemptsMade', align: 'right' },
    { title: 'Failed at', dataIndex: 'failedAt', render: (at: string | null) => formatWhen(at) },
    // The trace id to search in the trace viewer (npm start -- --tracing): the request, its retries.
    traceColumn,
    {
      title: 'Action',
      key: 'action',
      render: (_value, job) => (
        <Button
          size="small"
          loading={busyKey === keyOf(job)}
          aria-label={`${SYNC_TEXTS.retry} ${job.kind} ${job.label}`}
          onClick={() => void retry({ queue: job.queue, id: job.id })}
        >
          {SYNC_TEXTS.retry}
        </Button>
      ),
    },
  ];

  return (
    <Card title={SYNC_TEXTS.failedJobs}>
      {error ? <Alert type="error" showIcon title={errorText(error)} style={{ marginBottom: 12 }} /> : null}
      {retrying.error ? (
        <Alert
          type="error"
          showIcon
          title={errorText(retrying.error)}
          closable={{ onClose: () => retrying.reset(), 'aria-label': 'Dismiss' }}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Table<FailedJob>
        size="small"
        rowKey={keyOf}
        columns={columns}
        dataSource={data ?? []}
        loading={isLoading}
        locale={{ emptyText: SYNC_TEXTS.noFailedJobs }}
        pagination={TABLE_PAGINATION}
        scroll={{ x: true }}
      />
    </Card>
  );
}
