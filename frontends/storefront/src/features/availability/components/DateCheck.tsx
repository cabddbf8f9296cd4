import { Button, Flex } from '@decor/web-core/ui';
import { DatePicker, dayjs } from '@decor/web-core/ui-data';
import { useId } from 'react';
import { TEXTS } from '../../../texts';
import { setCheckedDates, useCheckedDates } from '../checked-dates';

const DAY = 'YYYY-MM-DD';

/**
 * 'Check availability': the event's day (and optionally the last day), remembered for the visit;
 * every product shown then says how many are free (issue 15).
 */
export function DateCheck() {
  const dates = useCheckedDates();
  const fromId = useId();
  const toId = useId();
  const today = dayjs().startOf('day');
  return (
    <Flex
      role="group"
      aria-label="Availability dates"
      gap={8}
      align="center"
      wrap
      style={{ margin: '8px 0 16px' }}
    >
      <label htmlFor={fromId} style={{ fontWeight: 500 }}>
        {TEXTS.checkAvailability}
      </label>
      <DatePicker
        id={fromId}
        format={DAY}
        placeholder={DAY}
        value={dates ? dayjs(dates.from, DAY) : null}
        disabledDate={(d) => d.isBefore(today)}
        onChange={(d) => {
          if (!d) return setCheckedDates(null);
          const from = d.format(DAY);
          const to = dates && dates.to > from ? dates.to : from;
          setCheckedDates({ from, to });
        }}
      />
      <label htmlFor={toId} style={{ fontSize: 13 }}>
        {TEXTS.checkUntil}
      </label>
      <DatePicker
        id={toId}
        format={DAY}
        placeholder={DAY}
        disabled={!dates}
        value={dates && dates.to !== dates.from ? dayjs(dates.to, DAY) : null}
        disabledDate={(d) => !!dates && d.isBefore(dayjs(dates.from, DAY))}
        onChange={(d) => {
          if (dates) setCheckedDates({ from: dates.from, to: d ? d.format(DAY) : dates.from });
        }}
      />
      {dates ? <Button onClick={() => setCheckedDates(null)}>{TEXTS.clearDates}</Button> : null}
    </Flex>
  );
}
