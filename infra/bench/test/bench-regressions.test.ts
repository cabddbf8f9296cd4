/**
 * The bench's comparison with an earlier row of the same part (infra/bench/src/regressions.ts): real
 * rows in the shape infra/bench/bench-results.md holds them, each with its machine's calibration.
 */
import {
  cellsOf,
  headerOfRow,
  howMuchWorse,
  numbersIn,
  regressionLine,
  regressions,
  type WatchedFigure,
} from '../src/regressions';

const HEADER = cellsOf(
  '| date (UTC) | machine | settings | direct req/s (p50/p99 ms) | write → job p50 / p90 / p99 / max ms |',
);
/** The machine these rows were measured on (one calibration for all: the same machine). */
const HERE = '2 cores, 24 GB; machine 0a1b2c3d, loop 80 ms, bare Fastify 20,000/s';
const P99: WatchedFigure = {
  label: 'pipeline p99',
  column: 'write → job p50 / p90 / p99 / max ms',
  index: 2,
  better: 'lower',
  unit: 'ms',
};
const DIRECT: WatchedFigure = {
  label: 'direct req/s',
  column: 'direct req/s (p50/p99 ms)',
  better: 'higher',
  unit: 'req/s',
};
const rate = (cells: string[]) => /events at (\d+)\/s/.exec(cells[2] ?? '')?.[1];

const row = (date: string, settings: string, direct: string, pipeline: string, machine = HERE) =>
  `| ${date} | ${machine} | ${settings} | ${direct} | ${pipeline} |`;

describe('numbers in a cell', () => {
  it('reads thousands separators, decimals and several numbers; none in a dash', () => {
    expect(numbersIn('1,137 (41/96)')).toEqual([1137, 41, 96]);
    expect(numbersIn('11 / 37 / 85 / 149')).toEqual([11, 37, 85, 149]);
    expect(numbersIn('10 / 10, 190, 0')).toEqual([10, 10, 190, 0]);
    expect(numbersIn('19.3 / 30.9, 47')).toEqual([19.3, 30.9, 47]);
    expect(numbersIn('–')).toEqual([]);
  });
});

describe('how much worse', () => {
  it('is the growth of a time, and the shrinking of a rate seen from the new figure', () => {
    expect(howMuchWorse(412, 250, 'lower')).toBeCloseTo(0.648);
    expect(howMuchWorse(200, 250, 'lower')).toBe(0);
    expect(howMuchWorse(500, 1000, 'higher')).toBe(1); // half the rate: the old one is 2× the new
    expect(howMuchWorse(1200, 1000, 'higher')).toBe(0);
  });
});

describe('comparison with the last row of the same part', () => {
  const earlier = [
    row('2026-11-20 10:00Z', '300 + 1000 events at 50/s', '–', '11 / 37 / 300 / 400'),
    row('2026-11-20 17:00Z', '300 + 1000 events at 50/s', '1,137 (41/96)', '11 / 37 / 250 / 400'),
    row('2026-11-21 09:00Z', '300 + 5000 events at 500/s', '–', '20 / 60 / 900 / 1000'),
    row('2026-11-21 10:00Z', '50 conn × 10 s', '1,000 (40/90)', '–'),
  ];

  it('flags a figure more than 50 % worse than the last row holding it, at the same rate', () => {
    const current = row('2026-11-27 09:00Z', '300 + 1000 events at 50/s', '–', '12 / 40 / 412 / 500');
    const found = regressions({ header: HEADER, earlier, current, figures: [P99, DIRECT], kind: rate });
    // Compared with 17:00Z (250 ms): the 500/s row and the row without pipeline figures are passed over.
    expect(found).toHaveLength(1);
    expect(regressionLine(found[0] as never)).toBe(
      '!!! REGRESSION: pipeline p99 412 ms is 65 % worse than the last row of this machine (250 ms, 2026-11-20 17:00Z)',
    );
  });

  it('says nothing at 50 % worse or less, nor when no earlier row of that kind exists', () => {
    const same = row('2026-11-27 09:00Z', '300 + 1000 events at 50/s', '–', '12 / 40 / 375 / 500');
    expect(regressions({ header: HEADER, earlier, current: same, figures: [P99], kind: rate })).toEqual([]);
    const newRate = row('2026-11-27 09:00Z', '300 + 1000 events at 200/s', '–', '12 / 40 / 999 / 999');
    expect(regressions({ header: HEADER, earlier, current: newRate, figures: [P99], kind: rate })).toEqual(
      [],
    );
  });

  it('compares each rate with its own rows', () => {
    const fast = row('2026-11-27 09:00Z', '300 + 5000 events at 500/s', '–', '20 / 60 / 1400 / 1500');
    const found = regressions({ header: HEADER, earlier, current: fast, figures: [P99], kind: rate });
    expect(found.map((r) => [r.before, r.beforeWhen])).toEqual([[900, '2026-11-21 09:00Z']]);
  });

  it('flags a rate that fell below 1/1.5 of the last one', () => {
    const current = row('2026-11-27 09:00Z', '50 conn × 10 s', '600 (80/200)', '–');
    const found = regressions({ header: HEADER, earlier, current, figures: [P99, DIRECT], kind: rate });
    expect(found.map((r) => [r.label, r.now, r.before])).toEqual([['direct req/s', 600, 1000]]);
  });

  it('leaves a change smaller than the figure minimum alone', () => {
    const tiny = { ...P99, index: 0, label: 'pipeline p50', minChange: 5 };
    const current = row('2026-11-27 09:00Z', '300 + 1000 events at 50/s', '–', '15 / 40 / 250 / 300');
    expect(regressions({ header: HEADER, earlier, current, figures: [tiny], kind: rate })).toEqual([]);
    const worse = row('2026-11-27 09:00Z', '300 + 1000 events at 50/s', '–', '17 / 40 / 250 / 300');
    expect(
      regressions({ header: HEADER, earlier, current: worse, figures: [tiny], kind: rate }),
    ).toHaveLength(1);
  });
});

describe('the header of a recorded row', () => {
  it('is the first line of the table block the row sits in', () => {
    const text = [
      '# Benchmarks',
      '',
      '| date | figure |',
      '|---|---|',
      '| 2026-11-20 | 10 |',
      '| 2026-11-21 | 12 |',
      '',
      '| when | other |',
      '|---|---|',
      '| x 2026-11-22 | 5 |',
    ].join('\n');
    expect(headerOfRow(text, '| 2026-11-21 | 12 |')).toEqual(['date', 'figure']);
    expect(headerOfRow(text, '| x 2026-11-22 | 5 |')).toEqual(['when', 'other']);
    expect(headerOfRow(text, '| missing |')).toBeUndefined();
  });
});
