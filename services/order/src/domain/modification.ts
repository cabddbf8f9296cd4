import { daysUntil, EDIT_CUTOFF_DAYS, TERMINAL_STATUSES } from '@decor/contracts';

/**
 * Whether a customer may still change the order (the `can-be-modified` header for customers):
 * while it is not terminal and its event is at least 3 calendar days after `today` (both
 * YYYY-MM-DD). On the 3rd day before the event it still can; on the 2nd it cannot. (The same
 * rule as the lifecycle's edit for a customer: contracts' lifecycle.ts.)
 */
export function canBeModified(order: { status: string; eventDate: string }, today: string): boolean {
  if (TERMINAL_STATUSES.has(order.status)) return false;
  return daysUntil(order.eventDate, today) >= EDIT_CUTOFF_DAYS;
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
