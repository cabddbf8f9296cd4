/**
 * The guard knows its machine (calibration.ts, regressions.ts): a row is compared with the last row
 * of the same machine as it is, with a calibrated row of another machine scaled by the two
 * calibrations, and never with a row that carries no calibration. Rows in the import section's shape;
 * the 2026-11-27 row is the one recorded by the faster machine (it names 2 cores, 24 GB like ours).
 */
import {
  type Calibration,
  calibrationIn,
  calibrationText,
  cpuLoopMs,
  machineFingerprint,
  measureCalibration,
  slowness,
} from '../src/calibration';
import { IMPORT_FIGURES, RUNS_FIGURES } from '../src/figure-guard';
import { cellsOf, guardRow, regressionLine } from '../src/regressions';

const HEADER = cellsOf(
  '| when (UTC) | machine | node | load (1 min) before | QuickBooks Customers | cold (QuickBooks read) p50 / p95 ms | dialog opens p50 / p95 ms | search p50 / p95 ms | pages p50 / p95 ms | answers right |',
);
const FAST: Calibration = { machine: 'fa570000', loopMs: 40, fastifyPerSecond: 40_000 };
/** Twice as slow by both measures, as this machine is beside the one that wrote the earlier rows. */
const SLOW: Calibration = { machine: '510e0000', loopMs: 80, fastifyPerSecond: 20_000 };

const cell = (c: Calibration | undefined) => `2 cores, 24 GB${c ? `; ${calibrationText(c)}` : ''}`;
const importRow = (when: string, c: Calibration | undefined, opens: number, search: number) =>
  `| import ${when} | ${cell(c)} | v24.21.0 | 1.00 | 5,002 | 886.6 / 1499.5 | ${opens / 2} / ${opens} | ${search / 2} / ${search} | 214.5 / 441.7 | 305/305 |`;
const guard = (earlier: string[], current: string) =>
  guardRow({ header: HEADER, earlier, current, figures: IMPORT_FIGURES });

describe('the calibration a row carries', () => {
  it('is written in the machine cell and read back from it', () => {
    const text = cell(SLOW);
    expect(text).toBe('2 cores, 24 GB; machine 510e0000, loop 80 ms, bare Fastify 20,000/s');
    expect(calibrationIn(['import 2026-12-02 05:00Z', text])).toEqual(SLOW);
    expect(calibrationIn(['import 2026-11-27 02:40Z', '2 cores, 24 GB'])).toBeUndefined();
    expect(slowness(SLOW, FAST)).toBe(2);
  });

  it("is measured on this machine: its fingerprint, a CPU loop and bare Fastify's rate", async () => {
    const lines: string[] = [];
    const c = await measureCalibration((line) => lines.push(line));
    expect(c.machine).toBe(machineFingerprint());
    expect(c.machine).toMatch(/^[0-9a-f]{8}$/);
    expect(c.loopMs).toBeGreaterThan(1);
    expect(c.fastifyPerSecond).toBeGreaterThan(100);
    expect(lines).toContain(`calibration: ${calibrationText(c)}`);
    const back = calibrationIn([calibrationText(c)]);
    expect(back?.machine).toBe(c.machine);
    expect(back?.loopMs).toBe(Math.round(c.loopMs));
  }, 60_000);
});

describe('which earlier row a new row is compared with', () => {
  it('a row without a calibration (recorded before it existed) is never compared, and the guard says so', () => {
    // The issue's case: this machine's figures beside the faster machine's last row.
    const earlier = [importRow('2026-11-27 02:40Z', undefined, 393.7, 405.8)];
    const { found, bases } = guard(earlier, importRow('2026-12-02 05:00Z', SLOW, 830, 1510.1));
    expect(found).toEqual([]);
    expect(bases).toEqual([
      'nothing compared: no earlier row of this machine (510e0000) nor any with a calibration (1 older rows carry none)',
    ]);
  });

  it("another machine's row is scaled by the calibrations: twice as slow is no alarm, a real 50 % more is", () => {
    const earlier = [importRow('2026-12-01 10:00Z', FAST, 200, 200)];
    const machineAlone = guard(earlier, importRow('2026-12-02 05:00Z', SLOW, 400, 420));
    expect(machineAlone.found).toEqual([]);
    expect(machineAlone.bases[0]).toMatch(
      /^compared with the last calibrated row \(import 2026-12-01 10:00Z, machine fa570000\), scaled: this machine 510e0000 is 2\.00× as slow/,
    );
    // A deliberate slowdown on top of the machine's: search 1.6 × the 400 ms expected here.
    const slowed = guard(earlier, importRow('2026-12-02 05:00Z', SLOW, 400, 640));
    expect(slowed.found.map(regressionLine)).toEqual([
      '!!! REGRESSION: import: search p95 640 ms is 60 % worse than the last calibrated row, scaled ×2.00 (400 ms, import 2026-12-01 10:00Z)',
    ]);
  });

  it('calibrations that disagree (one run was disturbed) compare nothing, and the guard says so', () => {
    // The earlier row's bare Fastify measured on a busy machine: 10× slower by it, 2× by the loop.
    const disturbed: Calibration = { machine: 'fa570000', loopMs: 40, fastifyPerSecond: 4_000 };
    const earlier = [importRow('2026-12-01 10:00Z', disturbed, 20, 20)];
    const { found, bases } = guard(earlier, importRow('2026-12-02 05:00Z', SLOW, 400, 420));
    expect(found).toEqual([]);
    expect(bases).toEqual([
      'nothing compared: the calibrations of this machine 510e0000 and of the last calibrated row (import 2026-12-01 10:00Z, machine fa570000) disagree (loop ×2.00, bare Fastify ×0.20): one of the runs was disturbed',
    ]);
  });

  it('the last row of the same machine comes first, figures as they are', () => {
    const earlier = [
      importRow('2026-12-01 10:00Z', SLOW, 400, 400),
      importRow('2026-12-01 12:00Z', FAST, 200, 200),
    ];
    const { found, bases } = guard(earlier, importRow('2026-12-02 05:00Z', SLOW, 420, 650));
    expect(bases).toEqual([
      'compared with the last row of this machine (510e0000, import 2026-12-01 10:00Z), figures as they are',
    ]);
    expect(found.map((r) => [r.label, r.before, r.basis])).toEqual([
      ['import: search p95', 400, 'the last row of this machine'],
    ]);
  });

  it('a figure no machine changes (bytes of JS) is not scaled', () => {
    const header = cellsOf('| date (UTC) | machine | JS KB gzip `/` (≤ 300) |');
    const js = RUNS_FIGURES.filter((f) => f.column === 'JS KB gzip `/` (≤ 300)');
    const row = (c: Calibration, kb: number) => `| 2026-12-0${kb > 200 ? 2 : 1} | ${cell(c)} | ${kb} |`;
    const found = guardRow({ header, earlier: [row(FAST, 150)], current: row(SLOW, 240), figures: js }).found;
    expect(found.map((r) => [r.now, r.before])).toEqual([[240, 150]]);
  });
});

describe('a deliberate slowdown measured on this machine', () => {
  it('the same work measured again is no alarm; the work done twice is', () => {
    // Pure CPU work (no allocation, so no collector in it), ~1 ms.
    const work = () => {
      let x = 88172645;
      for (let i = 0; i < 1_000_000; i++) x = (x ^ (x << 7) ^ (x >>> 9)) | 0;
      return x;
    };
    const time = (f: () => unknown) => {
      const t = performance.now();
      f();
      return performance.now() - t;
    };
    // Interleaved, so that whatever else the shared machine does weighs on the three alike; the
    // fastest of each is the machine's speed (anything else running only ever adds).
    const first: number[] = [];
    const again: number[] = [];
    const twice: number[] = [];
    for (let i = 0; i < 21; i++) {
      first.push(time(work));
      again.push(time(work));
      twice.push(
        time(() => {
          work();
          work();
        }),
      );
    }
    const here: Calibration = {
      machine: machineFingerprint(),
      loopMs: cpuLoopMs(),
      fastifyPerSecond: 10_000,
    };
    // A figure of 100 such calls: well above the figures' 20 ms minimum change.
    const ms = (xs: number[]) => Math.round(Math.min(...xs) * 100);
    const earlier = [importRow('2026-12-02 05:00Z', here, ms(first), ms(first))];
    const rerun = guard(earlier, importRow('2026-12-02 05:10Z', here, ms(again), ms(again)));
    expect(rerun.found).toEqual([]);
    expect(rerun.bases[0]).toMatch(/^compared with the last row of this machine/);
    const slowed = guard(earlier, importRow('2026-12-02 05:20Z', here, ms(twice), ms(twice)));
    expect(slowed.found.map((r) => r.label)).toEqual(['import: dialog opens p95', 'import: search p95']);
  });
});
