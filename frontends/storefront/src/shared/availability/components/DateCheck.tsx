import { EARLY_KEYS_AREA } from '@decor/web-core';
import { Button, Flex } from '@decor/web-core/ui';
import { useEffect, useId, useRef } from 'react';
import { TEXTS } from '../../../texts';
import { setCheckedDates, useCheckedDates } from '../checked-dates';
import { DateField, reachForPicker } from './DateField';
import { armDormantPickers } from './dormant-pickers';

/** Today in the visitor's time zone, as the picker writes days (YYYY-MM-DD). */
function today(): string {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/**
 * 'Check availability': the event's day (and optionally the last day), remembered for the visit;
 * every product shown then says how many are free (issue 15). The pickers' code loads when it is
 * needed (DateField).
 */
export function DateCheck() {
  const dates = useCheckedDates();
  const fromId = useId();
  const toId = useId();
  const area = useRef<HTMLDivElement>(null);
  useEffect(() => (area.current ? armDormantPickers(area.current, reachForPicker) : undefined), []);
  return (
    <Flex
      ref={area}
      {...EARLY_KEYS_AREA}
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
      <DateField
        id={fromId}
        value={dates ? dates.from : null}
        disabledDay={(day) => day < today()}
        onChange={(from) => {
          if (!from) return setCheckedDates(null);
          const to = dates && dates.to > from ? dates.to : from;
          setCheckedDates({ from, to });
        }}
      />
      <label htmlFor={toId} style={{ fontSize: 13 }}>
        {TEXTS.checkUntil}
      </label>
      <DateField
        id={toId}
        disabled={!dates}
        value={dates && dates.to !== dates.from ? dates.to : null}
        disabledDay={(day) => !!dates && day < dates.from}
        onChange={(to) => {
          if (dates) setCheckedDates({ from: dates.from, to: to ?? dates.from });
        }}
      />
      {dates ? <Button onClick={() => setCheckedDates(null)}>{TEXTS.clearDates}</Button> : null}
    </Flex>
  );
}
