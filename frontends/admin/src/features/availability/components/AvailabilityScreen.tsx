import { useSearchParams } from '@decor/web-core/router';
import { Flex } from '@decor/web-core/ui';
import { Tabs } from '@decor/web-core/ui-data';
import { Typography } from '@decor/web-core/ui-forms';
import { currentMonth } from '../month';
import { AVAILABILITY_TEXTS as T } from '../texts';
import { AvailabilityCalendarView } from './AvailabilityCalendarView';
import { ConflictsList } from './ConflictsList';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * /admin/availability (issue 15): the calendar (products × days of a month, booked / owned) and the
 * conflicts (days booked beyond what the shop owns). Month, category and tab live in the address.
 */
export function AvailabilityScreen() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('month') ?? '';
  const month = MONTH.test(requested) ? requested : currentMonth();
  const category = params.get('category') ?? '';
  const tab = params.get('tab') === 'conflicts' ? 'conflicts' : 'calendar';
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  return (
    <Flex vertical gap={12} style={{ padding: 'clamp(12px, 3vw, 32px)', width: '100%', minWidth: 0 }}>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
        {T.title}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => set({ tab: key === 'conflicts' ? 'conflicts' : '' })}
        items={[
          {
            key: 'calendar',
            label: T.calendar,
            children: (
              <AvailabilityCalendarView
                month={month}
                category={category}
                onMonth={(m) => set({ month: m })}
                onCategory={(c) => set({ category: c })}
              />
            ),
          },
          { key: 'conflicts', label: T.conflicts, children: <ConflictsList /> },
        ]}
      />
    </Flex>
  );
}
