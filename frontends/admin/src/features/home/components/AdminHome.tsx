import { isStaff, useAppSelector } from '@decor/web-core';
import { Link } from '@decor/web-core/router';
import { Flex } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { Typography } from '@decor/web-core/ui-forms';
import type { ReactNode } from 'react';
import { useGetConflictsQuery } from '../../../shared/api/availability/availability-api';
import { useGetDeadLettersQuery, useGetFailedJobsQuery } from '../../../shared/api/sync/sync-api';
import { type CountedList, useCountListQuery } from '../api/counts-api';
import { HOME_TEXTS } from '../texts';

interface Counted {
  data?: number;
  isError: boolean;
}

function Count({ label, count }: { label: string; count: Counted }) {
  const value = count.isError ? HOME_TEXTS.unavailable : (count.data?.toLocaleString('en-US') ?? '…');
  return (
    <Flex justify="space-between" gap={16} style={{ padding: '4px 0' }}>
      <dt>{label}</dt>
      <dd style={{ margin: 0, fontWeight: 600 }}>{value}</dd>
    </Flex>
  );
}

function Area({ to, title, children }: { to: string; title: string; children: ReactNode }) {
  return (
    <Card
      title={
        <Link to={to} style={{ fontSize: 18 }}>
          {title}
        </Link>
      }
      style={{ flex: '1 1 260px', maxWidth: 420 }}
    >
      <dl style={{ margin: 0 }}>{children}</dl>
    </Card>
  );
}

/** Fresh on every visit: the counts are what staff come here to see. */
const fresh = { refetchOnMountOrArgChange: true } as const;

function useCount(list: CountedList, skip: boolean) {
  return useCountListQuery(list, { ...fresh, skip });
}

/**
 * /admin: the staff landing page — Orders, Users, QuickBooks sync and Availability, each with the counts that call
 * for action. The shell's guard admits staff only; the counts are not even asked for anyone else.
 */
export function AdminHome() {
  const skip = !useAppSelector((s) => isStaff(s.session.user?.permissions));
  const pending = useCount({ url: '/estimate', params: { status: 'Pending' } }, skip);
  const modified = useCount({ url: '/estimate', params: { hasBeenModified: 'true' } }, skip);
  const customers = useCount({ url: '/user', params: { permissions: 'customer' } }, skip);
  const failed = useGetFailedJobsQuery(undefined, { ...fresh, skip });
  const dead = useGetDeadLettersQuery(undefined, { ...fresh, skip });
  const conflicts = useGetConflictsQuery(undefined, { ...fresh, skip });
  if (skip) return null;
  return (
    <Flex vertical gap={16} style={{ padding: 'clamp(12px, 3vw, 32px)', width: '100%' }}>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
        {HOME_TEXTS.title}
      </Typography.Title>
      <Flex wrap gap={16}>
        <Area to="/admin/orders" title={HOME_TEXTS.orders}>
          <Count label={HOME_TEXTS.pendingReview} count={pending} />
          <Count label={HOME_TEXTS.pendingUpdate} count={modified} />
        </Area>
        <Area to="/admin/users" title={HOME_TEXTS.users}>
          <Count label={HOME_TEXTS.customers} count={customers} />
        </Area>
        <Area to="/admin/sync" title={HOME_TEXTS.sync}>
          <Count
            label={HOME_TEXTS.failedJobs}
            count={{ data: failed.data?.length, isError: failed.isError }}
          />
          <Count label={HOME_TEXTS.deadLetters} count={{ data: dead.data?.length, isError: dead.isError }} />
        </Area>
        <Area to="/admin/availability" title={HOME_TEXTS.availability}>
          <Count
            label={HOME_TEXTS.conflicts}
            count={{ data: conflicts.data?.length, isError: conflicts.isError }}
          />
        </Area>
      </Flex>
    </Flex>
  );
}
