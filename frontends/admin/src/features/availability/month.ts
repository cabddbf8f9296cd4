import { MONTHS } from '@decor/contracts/rules';

/** The calendar's months ('YYYY-MM'); month arithmetic is `shiftMonth` in @decor/contracts. */
export { shiftMonth } from '@decor/contracts/rules';

/** 'January 2027'. */
export function monthTitle(month: string): string {
  const [year, m = 1] = month.split('-').map(Number);
  return `${MONTHS[m - 1]} ${year}`;
}

/** Today's month where the browser is. */
export function currentMonth(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}
