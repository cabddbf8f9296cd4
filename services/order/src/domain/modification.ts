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

/** The calendar date (YYYY-MM-DD) of `now` in `timeZone`. */
export function calendarDate(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
