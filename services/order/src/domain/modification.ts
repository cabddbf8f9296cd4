/** Spec §9: customers cannot edit within 3 days of the event. */
export const EDIT_CUTOFF_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1) / DAY_MS;
}

/** Calendar days from `today` to `date` (both YYYY-MM-DD); negative once past. */
export function daysUntil(date: string, today: string): number {
  return dayNumber(date) - dayNumber(today);
}

const TERMINAL = new Set(['Closed', 'Completed', 'Voided']);

/**
 * Whether a customer may still change the order (the `can-be-modified` header for customers):
 * while it is not terminal and its event is at least 3 calendar days after `today` (both
 * YYYY-MM-DD). On the 3rd day before the event it still can; on the 2nd it cannot. (The same
 * rule as `decide`'s edit for a customer: domain/lifecycle.ts.)
 */
export function canBeModified(order: { status: string; eventDate: string }, today: string): boolean {
  if (TERMINAL.has(order.status)) return false;
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
