import {
  type AvailabilityConflict,
  addDays,
  bookedPerDay,
  dayNumber,
  type HoldingOrder,
} from '@decor/contracts';
import type { Hold } from './bookings';

/** A product's ledger with what the shop owns of it. */
export interface LedgerFacts {
  sku: string;
  name: string;
  owned: number;
  holds: readonly Hold[];
}

/** A run of days booked beyond what the shop owns (the API adds each order's DocNumber). */
export type Conflict = Omit<AvailabilityConflict, 'orders'> & {
  orders: Omit<HoldingOrder, 'DocNumber' | 'subRental'>[];
};

/** How far ahead conflicts are looked for. */
const HORIZON_DAYS = 3 * 366;

/** The conflicts from `today` on (staff reduced a product's quantity, or overbooked on purpose). */
export function conflictsOf(ledgers: readonly LedgerFacts[], today: string): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const ledger of ledgers) {
    const ahead = ledger.holds.filter((h) => h.last >= today);
    if (ahead.length === 0) continue;
    let last = today; // days compare as text (YYYY-MM-DD)
    for (const h of ahead) if (h.last > last) last = h.last;
    const range = {
      first: today,
      last: dayNumber(last) - dayNumber(today) > HORIZON_DAYS ? addDays(today, HORIZON_DAYS) : last,
    };
    const perDay = bookedPerDay(ahead, range);
    let start = -1;
    for (let i = 0; i <= perDay.length; i++) {
      const over = i < perDay.length && (perDay[i] ?? 0) > ledger.owned;
      if (over && start < 0) start = i;
      if (!over && start >= 0) {
        const run = { first: addDays(range.first, start), last: addDays(range.first, i - 1) };
        conflicts.push({
          id: ledger.sku,
          name: ledger.name,
          owned: ledger.owned,
          ...run,
          peak: Math.max(...perDay.slice(start, i)),
          orders: ahead
            .filter((h) => h.first <= run.last && run.first <= h.last)
            .map((h) => ({ orderId: h.orderId, qty: h.qty, overbooked: h.overbooked })),
        });
        start = -1;
      }
    }
  }
  return conflicts.sort((a, b) =>
    a.first < b.first ? -1 : a.first > b.first ? 1 : a.name.localeCompare(b.name),
  );
}
