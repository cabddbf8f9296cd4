import { Card, Table, type TableColumnsType, Tag } from '@decor/web-core/ui-data';
import type { QueueCounts } from '../../../shared/api/sync/types';
import { SYNC_TEXTS } from '../texts';

const columns: TableColumnsType<QueueCounts> = [
  {
    title: 'Queue',
    dataIndex: 'name',
    render: (name: string, queue) => (
      <>
        {name} {queue.paused ? <Tag color="orange">paused</Tag> : null}
      </>
    ),
  },
  { title: 'Waiting', dataIndex: 'waiting', align: 'right' },
  { title: 'Active', dataIndex: 'active', align: 'right' },
  { title: 'Delayed', dataIndex: 'delayed', align: 'right' },
  { title: 'Failed', dataIndex: 'failed', align: 'right' },
  { title: 'Completed', dataIndex: 'completed', align: 'right' },
];

/** The BullMQ queues of the sync with their counts. */
export function QueuesTable({ queues }: { queues: QueueCounts[] }) {
  return (
    <Card title={SYNC_TEXTS.queues}>
      <Table<QueueCounts>
        size="small"
        rowKey="name"
        columns={columns}
        dataSource={queues}
        pagination={false}
        scroll={{ x: true }}
      />
    </Card>
  );
}
