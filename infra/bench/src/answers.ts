/**
 * The answers each part checks, as failures: a wrong answer fails its part (the run exits 1 and the
 * part's row says FAILED), as a failed part does — a figure measured on wrong answers is no figure.
 * Each function names what was wrong; none: an empty list.
 */
import type { AcceptanceFigures } from './acceptance';
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

/** Issue 30: with the payment provider down, an acceptance answers 503 within this. */
export const DOWN_BOUND_MS = 5_000;

export function acceptanceProblems(f: AcceptanceFigures): string[] {
  const ok = f.statuses['201'] ?? 0;
  return [
    ...(ok === f.customers
      ? []
      : [`acceptance: ${ok} of ${f.customers} simultaneous acceptances answered 201`]),
    ...(f.acceptedWithOne === f.customers
      ? []
      : [
          `acceptance: ${f.customers - f.acceptedWithOne} of ${f.customers} estimates not accepted with exactly one authorisation`,
        ]),
    ...(f.raceAuthorisations === 1
      ? []
      : [`acceptance: ${f.raceAuthorisations} authorisations for 20 racing posts`]),
    ...((f.raceStatuses['201'] ?? 0) === f.racers && f.raceAccepted
      ? []
      : [`acceptance: racing posts answered ${JSON.stringify(f.raceStatuses)}, accepted ${f.raceAccepted}`]),
    ...f.down.flatMap((d) =>
      d.status === 503 && d.ms <= DOWN_BOUND_MS && d.state === 'awaiting' && d.authorised === 0
        ? []
        : [
            `acceptance: provider ${d.how}: answered ${d.status} in ${Math.round(d.ms)} ms, view ${d.state}, ${d.authorised} authorised`,
          ],
    ),
  ];
}

/** A row's answers cell: "305/305", or "FAILED 255/305" when anything was wrong. */
export const answersCell = (problems: readonly string[], cell: string): string =>
  problems.length > 0 ? `FAILED ${cell}` : cell;
