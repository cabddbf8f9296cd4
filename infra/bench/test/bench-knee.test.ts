/**
 * The pipeline's knee (pipeline-knee.ts) is recorded in a section of its own and guarded: a knee
 * that falls below 1/1.5 of the last one of the same machine is printed loudly; a run whose every
 * step missed records no knee and compares nothing. A rate misses only when two tries do.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { figureGuard, KNEE_FIGURES } from '../src/figure-guard';
import {
  formatKnee,
  type KneeFigures,
  type KneeStep,
  kneeRow,
  kneeRows,
  stepToKnee,
  writeKneeRows,
} from '../src/pipeline-knee';
import type { Machine } from '../src/report';

const machine = (date: string): Machine => ({
  date,
  cores: 2,
  cpu: 'AMD EPYC',
  memoryGb: 24,
  node: 'v24.21.0',
  loadBefore: 0.5,
  calibration: { machine: 'fa570000', loopMs: 40, fastifyPerSecond: 40_000 },
});

const step = (perSecond: number, p99: number, refused = 0): KneeStep => ({
  perSecond,
  sent: perSecond * 8,
  p50: 10,
  p99,
  refused,
  missing: 0,
  cpuMs: { user: 1.6, mongo: 1.1, notification: 0.4 },
  stackCpuMs: 3.1,
  others: 0.1,
  held: p99 <= 150 && refused === 0,
});

const figures = (knee: number | undefined, steps: KneeStep[]): KneeFigures => ({
  idle: { user: 0.02, kafka: 0.06, others: 0.05 },
  steps,
  knee,
  firstMissed: steps.find((s) => !s.held)?.perSecond,
});

const guard = (file: string, knee: KneeFigures, date: string) =>
  figureGuard(file, [
    {
      part: 'pipeline knee',
      earlier: kneeRows(file),
      rows: [kneeRow(machine(date), knee)],
      figures: KNEE_FIGURES,
    },
  ]);

it('is written as a row of its own section and read back', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'knee-')), 'bench-results.md');
  const row = kneeRow(
    machine('2026-12-02 17:00Z'),
    figures(400, [step(200, 40), step(400, 120), step(800, 900, 31)]),
  );
  writeKneeRows(file, [row]);
  expect(kneeRows(file)).toEqual([row]);
  expect(row).toContain('| 400/s |');
  expect(row).toContain('800: 10 / 900 (31, 0)'); // refused, missing
  expect(row).toContain('3.1: user 1.6, mongo 1.1, notification 0.4'); // the CPU at the knee
  expect(readFileSync(file, 'utf8')).toContain("## The event pipeline's knee");
});

it('a knee down to half of the last one of this machine is loud; one as high is not', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'knee-')), 'bench-results.md');
  writeKneeRows(file, [
    kneeRow(machine('2026-12-02 17:00Z'), figures(400, [step(400, 120), step(800, 900)])),
  ]);
  const lower = guard(file, figures(200, [step(200, 100), step(400, 300)]), '2026-12-02 18:00Z');
  expect(lower.alarms).toBe(1);
  expect(lower.lines.join('\n')).toMatch(
    /REGRESSION: pipeline knee 200 events\/s is 100 % worse .*\(400 events\/s/,
  );
  expect(guard(file, figures(400, [step(400, 130)]), '2026-12-02 18:00Z').alarms).toBe(0);
});

it('a run whose first step already missed records no knee, and compares nothing', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'knee-')), 'bench-results.md');
  writeKneeRows(file, [kneeRow(machine('2026-12-02 17:00Z'), figures(400, [step(400, 120)]))]);
  const none = figures(undefined, [step(50, 400)]);
  expect(kneeRow(machine('2026-12-02 18:00Z'), none)).toMatch(/\| none \|$/);
  expect(guard(file, none, '2026-12-02 18:00Z').alarms).toBe(0);
});

it("a refused step says what refused it: the outbox cap's 503 is the pipeline's, a limit's 429 the bench's own", () => {
  const refused = {
    ...step(800, 66, 1900),
    firstRefusal: '429 {"message":"Too many reset requests for this e-mail, please try again in 60 minutes"}',
  };
  const printed = formatKnee(figures(600, [step(600, 75), refused])).split('\n');
  expect(printed.find((l) => l.includes(' 800/s'))).toMatch(
    /MISSED \(first refused: 429 \{"message":"Too many reset/,
  );
  expect(printed.find((l) => l.includes(' 600/s'))).not.toContain('first refused');
});

/** Steps against a pipeline whose tries answer from `misses` (rate → how many tries miss first). */
async function stepped(rates: number[], misses: Record<number, number>, every = false) {
  const tries: number[] = [];
  const settles: number[] = [];
  const left = { ...misses };
  const found = await stepToKnee(
    rates,
    async (perSecond) => {
      tries.push(perSecond);
      const missing = (left[perSecond] ?? 0) > 0;
      if (missing) left[perSecond] = (left[perSecond] ?? 0) - 1;
      return { held: !missing };
    },
    { settle: async () => void settles.push(tries.length), every },
  );
  return { ...found, tries, settles };
}

it('one stall does not end the steps: a missed rate is tried once more, after the stack settles', async () => {
  // 200/s misses once (a pause), then holds; 800/s misses twice (saturation); 600 halfway holds.
  const run = await stepped([100, 200, 400, 800], { 200: 1, 800: 2 });
  expect(run).toMatchObject({ knee: 600, firstMissed: 800 });
  expect(run.tries).toEqual([100, 200, 200, 400, 800, 800, 600]);
  expect(run.settles).toEqual([2, 5, 6]); // before each second try, and before the step halfway
});

it('a rate that misses twice ends the steps, higher rates untried; the step halfway is tried twice too', async () => {
  const run = await stepped([100, 200, 400], { 200: 2, 150: 2 });
  expect(run).toMatchObject({ knee: 100, firstMissed: 150 });
  expect(run.tries).toEqual([100, 200, 200, 150, 150]);
});

it('every rate once when comparing CPU: a miss is not tried again', async () => {
  const run = await stepped([100, 200, 400], { 200: 1 }, true);
  expect(run).toMatchObject({ knee: 100, firstMissed: 200 });
  expect(run.tries).toEqual([100, 200, 400]);
});
