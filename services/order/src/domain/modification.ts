import type { Actor } from '@decor/contracts';
import { decide } from './decide';
import type { OrderRecord } from './view';

/**
 * Whether the caller may still change the order now (the `can-be-modified` header): exactly the
 * lifecycle's edit (`decide`), so the header, the Edit button and the PUT never disagree. For a
 * customer: not terminal and the event at least 3 calendar days after `today` (YYYY-MM-DD).
 */
export function canBeModified(order: OrderRecord, actor: Actor, today: string): boolean {
  return decide(order, { action: 'edit' }, actor, today).ok;
}

/** One formatter per time zone: building one costs far more than using it (every booking asks). */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of `now` in `timeZone`. */
export function calendarDate(now: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
