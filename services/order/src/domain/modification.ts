/** Spec §9: customers cannot edit within 3 days of the event. */
export const EDIT_CUTOFF_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1) / DAY_MS;
}

/**
 * Whether a customer may still change the order (the `can-be-modified` header): only while it is
 * Pending and its event is at least 3 calendar days after `today` (both YYYY-MM-DD). On the 3rd day
 * before the event it still can; on the 2nd it cannot.
 */
export function canBeModified(order: { status: string; eventDate: string }, today: string): boolean {
  if (order.status !== 'Pending') return false;
  return dayNumber(order.eventDate) - dayNumber(today) >= EDIT_CUTOFF_DAYS;
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
