/**
 * Summary formats (spec §5): dates in long form with an ordinal day, times 12-hour with AM/PM.
 * The same outputs as the e-mails (services/notification/src/domain/format.ts). A value in a form we
 * do not know is shown as given rather than guessed at.
 */

/** 1 → '1st', 2 → '2nd', 11 → '11th', 22 → '22nd'. */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 'YYYY-MM-DD' (a calendar day, no time zone) → 'Sunday, March 14th, 2027'. */
export function formatLongDate(value: string | undefined | null): string {
  const text = (value ?? '').trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return text;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return text;
  }
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[month - 1]} ${ordinal(day)}, ${year}`;
}

/** 'HH:mm' or 'HH:mm:ss' (what time pickers send) → '5:30 PM'. */
export function formatTime(value: string | undefined | null): string {
  const text = (value ?? '').trim();
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return text;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return text;
  return `${hours % 12 || 12}:${match[2]} ${hours < 12 ? 'AM' : 'PM'}`;
}
