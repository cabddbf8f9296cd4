/**
 * Calendar days ('YYYY-MM-DD'): an event's date is a day in the shop's calendar, not an instant, so
 * day arithmetic is done on UTC midnights and no time zone enters here. Pure and browser-safe.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day in 'YYYY-MM-DD' form (2027-02-30 is not). */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Days since 1970-01-01 (negative before it). */
export function dayNumber(day: string): number {
  const [year, month, date] = day.split('-').map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1) / DAY_MS;
}

/** The inverse of `dayNumber`. */
export function dayFromNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** `day` moved by `n` days (negative: earlier). */
export function addDays(day: string, n: number): string {
  return dayFromNumber(dayNumber(day) + n);
}

/** Calendar days from `today` to `date` (both YYYY-MM-DD); negative once past. */
export function daysUntil(date: string, today: string): number {
  return dayNumber(date) - dayNumber(today);
}

/** The days of a month 'YYYY-MM': its first and last day; undefined when not a month. */
export function monthDays(month: string): { first: string; last: string } | undefined {
  const first = `${month}-01`;
  if (!/^\d{4}-\d{2}$/.test(month) || !isCalendarDay(first)) return undefined;
  const [year, m] = month.split('-').map(Number);
  return { first, last: dayFromNumber(Date.UTC(year ?? 0, m ?? 1, 1) / DAY_MS - 1) };
}

/** 'YYYY-MM' moved by `by` months. */
export function shiftMonth(month: string, by: number): string {
  const [year = 0, m = 1] = month.split('-').map(Number);
  const index = year * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
