import type { AvailabilityCalendar } from '@decor/contracts/rules';
import { addDays, formatLongDate } from '@decor/contracts/rules';
import { Alert, Button, Empty, Flex, LeftOutlined, Loading, RightOutlined } from '@decor/web-core/ui';
import { Select } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import {
  useGetCalendarQuery,
  useGetCategoryNamesQuery,
} from '../../../shared/api/availability/availability-api';
import { monthTitle, shiftMonth } from '../month';
import { AVAILABILITY_TEXTS as T } from '../texts';
import { DayHolds } from './DayHolds';

type CalendarProduct = AvailabilityCalendar['products'][number];

const cellStyle = { border: '1px solid #f0e8dd', padding: 0, textAlign: 'center' as const, minWidth: 44 };

/** The month's grid: one row per product, one column per day; a day booked beyond the units owned stands out. */
export function AvailabilityCalendarView({
  month,
  category,
  onMonth,
  onCategory,
}: {
  month: string;
  category: string;
  onMonth: (month: string) => void;
  onCategory: (category: string) => void;
}) {
  const calendar = useGetCalendarQuery({ month, category: category || undefined });
  const categories = useGetCategoryNamesQuery();
  const [open, setOpen] = useState<{ product: CalendarProduct; day: string } | null>(null);
  const data = calendar.data;
  const days = data ? (data.products[0]?.booked.map((_, i) => addDays(data.first, i)) ?? []) : [];

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} align="center" wrap>
        <Button
          icon={<LeftOutlined aria-hidden />}
          aria-label={T.previousMonth}
          onClick={() => onMonth(shiftMonth(month, -1))}
        />
        <h2 style={{ margin: 0, fontSize: 20, minWidth: 170, textAlign: 'center' }} aria-live="polite">
          {monthTitle(month)}
        </h2>
        <Button
          icon={<RightOutlined aria-hidden />}
          aria-label={T.nextMonth}
          onClick={() => onMonth(shiftMonth(month, 1))}
        />
        <Select
          aria-label={T.category}
          style={{ minWidth: 200, marginLeft: 'auto' }}
          value={category}
          onChange={(value: string) => onCategory(value)}
          loading={categories.isLoading}
          options={[
            { value: '', label: T.allCategories },
            ...(categories.data ?? []).map((name) => ({ value: name, label: name })),
          ]}
        />
      </Flex>
      {calendar.isError ? <Alert type="error" showIcon role="alert" title={T.calendarError} /> : null}
      {calendar.isFetching && !data ? <Loading label="Loading the calendar" style={{ margin: 32 }} /> : null}
      {data && data.products.length === 0 ? <Empty description={T.noProducts} /> : null}
      {data && data.products.length > 0 ? (
        <div style={{ overflowX: 'auto', opacity: calendar.isFetching ? 0.6 : 1 }}>
          <table style={{ borderCollapse: 'collapse', background: '#fff', fontSize: 13 }}>
            <caption className="sr-only">{`Units booked / owned per day, ${monthTitle(month)}`}</caption>
            <thead>
              <tr>
                <th
                  scope="col"
                  style={{
                    textAlign: 'left',
                    padding: '4px 8px',
                    position: 'sticky',
                    left: 0,
                    background: '#fff',
                  }}
                >
                  {T.product}
                </th>
                {days.map((day) => (
                  <th
                    key={day}
                    scope="col"
                    style={{ padding: '4px 2px', fontWeight: 500 }}
                    title={formatLongDate(day)}
                  >
                    {Number(day.slice(8))}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.products.map((product) => (
                <tr key={product.id}>
                  <th
                    scope="row"
                    style={{
                      textAlign: 'left',
                      padding: '4px 8px',
                      position: 'sticky',
                      left: 0,
                      background: '#fff',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {product.name}
                  </th>
                  {product.booked.map((booked, i) => {
                    const day = days[i] ?? data.first;
                    const over = booked > product.owned;
                    return (
                      <td
                        key={day}
                        style={{
                          ...cellStyle,
                          background: over ? '#fde2e1' : booked > 0 ? '#f6efe4' : undefined,
                        }}
                      >
                        <button
                          type="button"
                          data-over={over || undefined}
                          aria-label={`${product.name}, ${formatLongDate(day)}: ${booked}/${product.owned} booked${over ? ', over' : ''}`}
                          onClick={() => setOpen({ product, day })}
                          style={{
                            border: 0,
                            background: 'transparent',
                            cursor: 'pointer',
                            width: '100%',
                            padding: '6px 2px',
                            color: over ? '#a8071a' : booked > 0 ? '#2b2420' : '#6b5d52',
                            fontWeight: over ? 700 : 400,
                          }}
                        >
                          {booked}/{product.owned}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {open ? <DayHolds product={open.product} day={open.day} onClose={() => setOpen(null)} /> : null}
    </Flex>
  );
}
