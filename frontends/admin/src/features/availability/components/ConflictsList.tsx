import { formatLongDate } from '@decor/contracts/rules';
import { Alert, Empty, Loading } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { useGetConflictsQuery } from '../../../shared/api/availability/availability-api';
import { AVAILABILITY_TEXTS as T } from '../texts';
import { HoldsList } from './HoldsList';

/** Runs of days, from today, where a product is booked beyond the units owned, with the orders involved. */
export function ConflictsList() {
  const conflicts = useGetConflictsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (conflicts.isFetching && !conflicts.data) return <Loading label="Loading the conflicts" />;
  if (conflicts.isError) return <Alert type="error" showIcon role="alert" title={T.conflictsError} />;
  if (!conflicts.data || conflicts.data.length === 0) return <Empty description={T.noConflicts} />;
  return (
    <ul
      aria-label={T.conflicts}
      style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 12 }}
    >
      {conflicts.data.map((c) => (
        <li key={`${c.id}:${c.first}`}>
          <Card
            size="small"
            title={
              <h3 style={{ margin: 0, fontSize: 16 }}>
                {c.name}: {c.peak} booked, {c.owned} owned
              </h3>
            }
          >
            <p style={{ marginTop: 0 }}>
              {c.first === c.last
                ? formatLongDate(c.first)
                : `${formatLongDate(c.first)} to ${formatLongDate(c.last)}`}
            </p>
            <HoldsList holds={c.orders} />
          </Card>
        </li>
      ))}
    </ul>
  );
}
