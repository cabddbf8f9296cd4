import { DatePicker, dayjs } from '@decor/web-core/ui-dates';
import { useEffect } from 'react';
import { takeOver } from './dormant-pickers';

export const DAY = 'YYYY-MM-DD';

export interface DayPickerProps {
  id: string;
  /** The day shown (YYYY-MM-DD), or none. */
  value: string | null;
  disabled?: boolean;
  /** Days that cannot be picked (YYYY-MM-DD). */
  disabledDay?: (day: string) => boolean;
  onChange: (day: string | null) => void;
}

/**
 * antd's DatePicker for one day, in days written YYYY-MM-DD (typed or picked). Its own chunk with
 * antd's pickers (DateField loads it); when it takes over the server's markup, it carries on with
 * what the visitor did there meanwhile (dormant-pickers.ts).
 */
export default function DayPicker({ id, value, disabled, disabledDay, onChange }: DayPickerProps) {
  useEffect(() => {
    void takeOver(id, value ?? '');
  }, [id]);
  return (
    <DatePicker
      id={id}
      format={DAY}
      placeholder={DAY}
      disabled={disabled}
      value={value ? dayjs(value, DAY) : null}
      disabledDate={(d) => disabledDay?.(d.format(DAY)) ?? false}
      onChange={(d) => onChange(d ? d.format(DAY) : null)}
    />
  );
}
