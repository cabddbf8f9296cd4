/**
 * The answers each part checks, as failures: a wrong answer fails its part (the run exits 1 and the
 * part's row says FAILED), as a failed part does — a figure measured on wrong answers is no figure.
 * Each function names what was wrong; none: an empty list.
 */
import type { AvailabilityFigures } from './availability';
import type { CheckoutFigures } from './checkouts';
import type { ImportFigures } from './import-listing';
import type { OrdersFigures } from './orders';
import type { UsersFigures } from './users';

type Checked = { name: string; requests: number; right: number; wrong?: string };

const calls = (part: string, list: readonly Checked[]) =>
  list
    .filter((c) => c.right < c.requests)
    .map((c) => `${part} ${c.name}: ${c.requests - c.right} of ${c.requests} answers wrong (${c.wrong})`);

export const importProblems = (f: ImportFigures): string[] => calls('import', f.calls);

export const usersProblems = (f: UsersFigures): string[] => calls('users', f.lists);

export function ordersProblems(f: OrdersFigures): string[] {
  const problems = f.lists.flatMap((l) => [
    ...(l.totalCount === l.expected
      ? []
      : [`orders ${l.query}: total_count ${l.totalCount}, want ${l.expected}`]),
    ...(l.rowsOk ? [] : [`orders ${l.query}: rows wrong`]),
  ]);
  const h = f.held;
  if (h.customersOk !== h.streams - h.staff || h.staffOk !== h.staff)
    problems.push(
      `orders streams: ${h.customersOk}/${h.streams - h.staff} customer streams got exactly their own change, ${h.staffOk}/${h.staff} staff streams got all`,
    );
  return problems;
}

export function checkoutProblems(k: CheckoutFigures): string[] {
  const counts = {
    estimates: k.estimates,
    'checked-out carts': k.checkedOutCarts,
    'customer e-mails': k.customerEmails,
    'staff e-mails': k.staffEmails,
  };
  return [
    ...(k.succeeded === k.customers ? [] : [`checkouts: ${k.succeeded} of ${k.customers} succeeded`]),
    ...Object.entries(counts)
      .filter(([, n]) => n !== k.customers)
      .map(([what, n]) => `checkouts: ${n} ${what}, want ${k.customers}`),
  ];
}

export function availabilityProblems(f: AvailabilityFigures): string[] {
  return [
    ...(f.booked > f.owned ? [`availability: ${f.booked} booked of ${f.owned} owned (oversold)`] : []),
    ...(f.other > 0 ? [`availability: ${f.other} race answers neither 201 nor 409`] : []),
  ];
}

/** A row's answers cell: "305/305", or "FAILED 255/305" when anything was wrong. */
export const answersCell = (problems: readonly string[], cell: string): string =>
  problems.length > 0 ? `FAILED ${cell}` : cell;
