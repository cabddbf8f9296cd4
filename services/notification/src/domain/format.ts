import { formatLongDate, formatTime, toDollars } from '@decor/contracts';

/**
 * How e-mails show money, dates and times (spec §5 "Summary formats": dates in long form with an
 * ordinal day, times 12-hour with AM/PM). Pure functions; a value that is not in a form we know is
 * shown as the customer typed it rather than guessed at.
 */

/** Integer cents → '$1,234.50' (dollars with two decimals, via the shared toDollars). */
export function formatMoney(cents: number): string {
  const dollars = toDollars(cents);
  const [whole = '0', fraction = '00'] = Math.abs(dollars).toFixed(2).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${dollars < 0 ? '-' : ''}$${grouped}.${fraction}`;
}

export { formatLongDate, formatTime, ordinal } from '@decor/contracts';

/**
 * An instant as the shop's clock shows it, with the zone's name so no reader takes it for their
 * own: 'Friday, January 17th, 2031 at 9:00 AM UTC' (issue 30: when an offer ends). Not a date: as given.
 */
export function formatMoment(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const day = formatLongDate(`${part.year}-${part.month}-${part.day}`);
  return `${day} at ${formatTime(`${part.hour}:${part.minute}`)} ${part.timeZoneName}`;
}
