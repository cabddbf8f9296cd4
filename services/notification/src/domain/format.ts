import { toDollars } from '@decor/contracts';

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
