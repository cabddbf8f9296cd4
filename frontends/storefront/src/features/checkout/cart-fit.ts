import { availableOnText, isCalendarDay, type ShortLine, shortLineText } from '@decor/contracts/rules';
import type { Cart } from '@decor/web-core';
import { useGetAvailabilityQuery } from '../../shared/availability/api/availability-api';

/** The days an order's lines are asked for: the earliest to the latest of the event and will-call dates. */
export function orderDays(dates: (string | undefined)[]): { from: string; to: string } | undefined {
  const days = dates.filter(isCalendarDay).sort();
  const from = days[0];
  const to = days[days.length - 1];
  return from && to ? { from, to } : undefined;
}

export interface LineFit {
  text: string;
  short: boolean;
}

/**
 * Whether the cart fits the order's days (issue 15): each line's availability, short lines said with
 * the server's text; `refused` (a 409's short lines) marks lines the server found short even when the
 * last check said they fit. The server decides again at submission.
 */
export function useCartFit(
  cart: Cart | null | undefined,
  dates: (string | undefined)[],
  refused: ShortLine[],
) {
  const days = orderDays(dates);
  const ids = [...new Set((cart?.CartProducts ?? []).map((l) => l.id))];
  const check = useGetAvailabilityQuery(
    { from: days?.from ?? '', to: days?.to, ids },
    { skip: !days || ids.length === 0 },
  );
  const lines = new Map<string, LineFit>();
  for (const line of cart?.CartProducts ?? []) {
    const wanted = (cart?.CartProducts ?? []).filter((l) => l.id === line.id).reduce((n, l) => n + l.qty, 0);
    const free = check.data?.get(line.id);
    const refusal = refused.find((r) => r.productId === line.id && r.requested === wanted);
    if (refusal) {
      lines.set(line.CartProductId, {
        text: shortLineText(refusal.available, refusal.name, refusal.day),
        short: true,
      });
    } else if (free?.available !== undefined && free.day) {
      const short = wanted > free.available;
      lines.set(line.CartProductId, {
        text: short
          ? shortLineText(free.available, line.name, free.day)
          : availableOnText(free.available, free.day),
        short,
      });
    } else if (free) {
      lines.set(line.CartProductId, { text: free.hint, short: free.hint === 'Not available' });
    }
  }
  return {
    lines,
    checking: check.isFetching,
    failed: check.isError,
    fits: ![...lines.values()].some((l) => l.short),
    refetch: check.refetch,
    checked: !!days && !check.isUninitialized,
  };
}
