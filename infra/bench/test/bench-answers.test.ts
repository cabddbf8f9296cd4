/**
 * A wrong answer fails its part (infra/bench/src/answers.ts, parts.ts): the import run (50 of
 * 100 searches wrong) kept its figures but printed them as if nothing were wrong and exited 0.
 */
import { type AcceptanceFigures, acceptanceRow } from '../src/acceptance';
import {
  acceptanceProblems,
  availabilityProblems,
  checkoutProblems,
  importProblems,
  ordersProblems,
  usersProblems,
} from '../src/answers';
import type { AvailabilityFigures } from '../src/availability';
import type { CheckoutFigures } from '../src/checkouts';
import { type ImportFigures, importListingRow } from '../src/import-listing';
import type { OrdersFigures } from '../src/orders';
import { BenchParts } from '../src/parts';
import type { Machine } from '../src/report';
import type { UsersFigures } from '../src/users';

const MACHINE: Machine = {
  date: '2026-12-02 05:00Z',
  cores: 2,
  cpu: 'AMD EPYC',
  memoryGb: 24,
  node: 'v24.21.0',
  loadBefore: 1,
  calibration: { machine: '0a1b2c3d', loopMs: 80, fastifyPerSecond: 20_000 },
};
const call = (name: string, requests: number, right: number, wrong?: string) => ({
  name,
  example: '/qbo/users',
  requests,
  p50: 300,
  p95: 800,
  max: 900,
  right,
  ...(wrong ? { wrong } : {}),
});
const importRun = (searchRight: number): ImportFigures => ({
  customers: 5002,
  seedMs: 3000,
  load: 1,
  calls: [
    call('cold (refresh=true: QuickBooks read)', 5, 5),
    call('dialog opens', 100, 100),
    call('search', 100, searchRight, '/qbo/users?search=import%20co%20042: total 0 (want 20), 0 rows'),
    call('pages', 100, 100),
  ],
});

describe('wrong answers fail the part', () => {
  it("the issue's import run: FAILED in its row, the part failed, the run fails; its figures kept", async () => {
    const lines: string[] = [];
    const parts = new BenchParts((line) => lines.push(line));
    const figures = await parts.run('import', async () => importRun(50));
    expect(figures?.calls[2]?.p95).toBe(800);
    parts.check('import', importProblems(figures as ImportFigures));

    expect(lines).toEqual([
      'import: FAILED, wrong answers: import search: 50 of 100 answers wrong (/qbo/users?search=import%20co%20042: total 0 (want 20), 0 rows)',
    ]);
    expect(parts.failed).toEqual(['import']);
    expect(() => parts.throwIfFailed()).toThrow('bench parts failed: import');
    const row = importListingRow(MACHINE, figures as ImportFigures);
    expect(row).toMatch(/\| FAILED 255\/305 \|$/);
    expect(row).toContain('| 2 cores, 24 GB; machine 0a1b2c3d, loop 80 ms, bare Fastify 20,000/s |');
  });

  it('every answer right: nothing said, nothing failed', () => {
    const parts = new BenchParts(() => {});
    parts.check('import', importProblems(importRun(100)));
    expect(parts.failed).toEqual([]);
    expect(importListingRow(MACHINE, importRun(100))).toMatch(/\| 305\/305 \|$/);
  });

  it('list totals, counts after checkouts and the race are checked too', () => {
    const users = {
      lists: [{ ...call('users search', 300, 299, 'total_count 3, expected 4'), reqPerSecond: 9 }],
    };
    expect(usersProblems(users as unknown as UsersFigures)).toEqual([
      'users users search: 1 of 300 answers wrong (total_count 3, expected 4)',
    ]);
    const orders = {
      lists: [{ query: 'like=docNumber:10', totalCount: 98, expected: 99, rowsOk: true }],
      held: { streams: 500, staff: 10, customersOk: 490, staffOk: 10 },
    };
    expect(ordersProblems(orders as unknown as OrdersFigures)).toEqual([
      'orders like=docNumber:10: total_count 98, want 99',
    ]);
    const checkouts = {
      customers: 50,
      succeeded: 50,
      estimates: 50,
      checkedOutCarts: 49,
      customerEmails: 50,
      staffEmails: 50,
    };
    expect(checkoutProblems(checkouts as CheckoutFigures)).toEqual([
      'checkouts: 49 checked-out carts, want 50',
    ]);
    expect(checkoutProblems({ ...checkouts, checkedOutCarts: 50 } as CheckoutFigures)).toEqual([]);
    const race = { owned: 10, booked: 11, other: 0 };
    expect(availabilityProblems(race as AvailabilityFigures)).toEqual([
      'availability: 11 booked of 10 owned (oversold)',
    ]);
  });

  it("issue 30's acceptance: all 201 and one authorisation each, the race's one, the provider down's 503", () => {
    const right: AcceptanceFigures = {
      aloneMs: 120,
      customers: 100,
      statuses: { '201': 100 },
      p50: 400,
      p99: 900,
      max: 950,
      recordedP50: 300,
      recordedP99: 700,
      acceptedWithOne: 100,
      racers: 20,
      raceStatuses: { '201': 20 },
      raceAuthorisations: 1,
      raceAccepted: true,
      down: [
        { how: '503', status: 503, ms: 40, state: 'awaiting', authorised: 0 },
        { how: 'refused', status: 503, ms: 30, state: 'awaiting', authorised: 0 },
      ],
      load: 1,
    };
    expect(acceptanceProblems(right)).toEqual([]);
    expect(acceptanceRow(MACHINE, right)).toContain(
      '| 120 | 100 / 100, 100 | 400 / 900 / 950 | 300 / 700 | 20 × 201; 1 |',
    );
    const wrong: AcceptanceFigures = {
      ...right,
      statuses: { '201': 99, '503': 1 },
      acceptedWithOne: 98,
      raceAuthorisations: 2,
      down: [
        { how: '503', status: 503, ms: 5_200, state: 'awaiting', authorised: 0 },
        right.down[1] as never,
      ],
    };
    expect(acceptanceProblems(wrong)).toEqual([
      'acceptance: 99 of 100 simultaneous acceptances answered 201',
      'acceptance: 2 of 100 estimates not accepted with exactly one authorisation',
      'acceptance: 2 authorisations for 20 racing posts',
      'acceptance: provider 503: answered 503 in 5200 ms, view awaiting, 0 authorised',
    ]);
    expect(acceptanceRow(MACHINE, wrong)).toContain('| FAILED 99 / 100, 98 |');
    const recorded = { ...right, down: [{ ...right.down[0], state: 'accepted', authorised: 1 } as never] };
    expect(acceptanceProblems(recorded)).toEqual([
      'acceptance: provider 503: answered 503 in 40 ms, view accepted, 1 authorised',
    ]);
  });
});
