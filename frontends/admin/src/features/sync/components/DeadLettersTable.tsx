import { Alert, Button } from '@decor/web-core/ui';
import { Card, Table, type TableColumnsType } from '@decor/web-core/ui-data';
import { useGetDeadLettersQuery, useReplayDeadLetterMutation } from '../../../shared/api/sync/sync-api';
import type { DeadLetter } from '../../../shared/api/sync/types';
import { errorText, formatWhen, SYNC_TEXTS } from '../texts';
import { TABLE_PAGINATION } from './table';

/** Events a consumer gave up on (its dead-letter topic), with Replay (POST …/replay, then refetch). */
export function DeadLettersTable({ pollingInterval }: { pollingInterval: number }) {
  const { data, error, isLoading } = useGetDeadLettersQuery(undefined, { pollingInterval });
  const [replay, replaying] = useReplayDeadLetterMutation();
  const busyId = replaying.isLoading ? replaying.originalArgs : undefined;

  const columns: TableColumnsType<DeadLetter> = [
    {
      title: 'Type',
      dataIndex: 'type',
      render: (type: string, letter) => (
        <>
          {type}
          <div style={{ color: 'rgba(0, 0, 0, 0.55)', fontSize: 12 }}>{letter.group}</div>
        </>
      ),
    },
    { title: 'Aggregate ID', dataIndex: 'aggregateId' },
    { title: 'Error', dataIndex: 'error' },
    { title: 'At', dataIndex: 'failedAt', render: (at: string) => formatWhen(at) },
    {
      title: 'Action',
      key: 'action',
      render: (_value, letter) => (
        <Button
          size="small"
          loading={busyId === letter.id}
          aria-label={`${SYNC_TEXTS.replay} ${letter.type} ${letter.aggregateId}`}
          onClick={() => void replay(letter.id)}
        >
          {SYNC_TEXTS.replay}
        </Button>
      ),
    },
  ];

  return (
    <Card title={SYNC_TEXTS.deadLetters}>
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
      <Table<DeadLetter>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={data ?? []}
        loading={isLoading}
        locale={{ emptyText: SYNC_TEXTS.noDeadLetters }}
        pagination={TABLE_PAGINATION}
        scroll={{ x: true }}
      />
    </Card>
  );
}
