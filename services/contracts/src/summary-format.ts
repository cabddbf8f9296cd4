import { WILL_CALL_FIELDS } from './estimate-fields';

/**
 * Spec §5 "Summary formats", shared by the checkout summary (frontends) and the e-mails
 * (notification): dates in long form with an ordinal day, times 12-hour with AM/PM, and the rule
 * for showing will-call details. Pure; a value in a form we do not know is shown as given, trimmed.
 */

/** 1 → '1st', 2 → '2nd', 11 → '11th', 22 → '22nd'. */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** The months' names, January first. */
export const MONTHS = [
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

/**
 * A calendar date 'YYYY-MM-DD' → 'Sunday, March 14th, 2027'. The date is a day in the event's
 * calendar, not an instant, so no time zone is involved. Anything else comes back trimmed, as given.
 */
export function formatLongDate(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return text;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2027-02-30 over into March: such a value is not a date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return text;
  }
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[month - 1]} ${ordinal(day)}, ${year}`;
}

/**
 * A clock time → '5:30 PM'. Takes 24-hour 'HH:mm' or 'HH:mm:ss' (what time inputs send) and
 * 12-hour '5:30 pm' / '5:30PM' / '5:30 p.m.'. Anything else comes back trimmed, as given.
 */
export function formatTime(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  const h24 = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text);
  if (h24) {
    const [hours, minutes] = [Number(h24[1]), Number(h24[2])];
    if (hours > 23 || minutes > 59 || Number(h24[3] ?? 0) > 59) return text;
    return `${hours % 12 || 12}:${h24[2]} ${hours < 12 ? 'AM' : 'PM'}`;
  }
  const h12 = /^(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?$/i.exec(text);
  if (h12) {
    const [hours, minutes] = [Number(h12[1]), Number(h12[2])];
    if (hours < 1 || hours > 12 || minutes > 59) return text;
    return `${hours}:${h12[2]} ${h12[3]?.toUpperCase()}M`;
  }
  return text;
}

/** Spec §5: will-call details appear only if at least two will-call values are filled. */
export function filledWillCallValues(values: Partial<Record<string, string | null | undefined>>): number {
  return WILL_CALL_FIELDS.filter((field) => (values[field] ?? '').trim() !== '').length;
}

export function showWillCall(values: Partial<Record<string, string | null | undefined>>): boolean {
  return filledWillCallValues(values) >= 2;
}
