/**
 * The bench guards its own figures: each new row is compared with an earlier row of the same part
 * (same table; for the event pipeline, the same rate) and a figure more than 50 % worse gets a loud
 * line. Worse means slower or fewer: a time or size grown past 1.5×, or a rate shrunk below 1/1.5.
 * Which earlier row, by the calibration each row carries (calibration.ts): the last row of the same
 * machine, figures as they are; else the last row of another calibrated machine, its figures scaled
 * by how much slower this machine is; never a row without a calibration (another machine's speed is
 * not a regression). Nothing fails on it: the machine is shared, and the line asks a person to look.
 */
import { type Calibration, calibrationIn, slowness } from './calibration';

/** One figure in a results table: which cell, which number in it, and which way is better. */
export interface WatchedFigure {
  /** As printed: "pipeline p99". */
  label: string;
  /** The column's header text, exactly. */
  column: string;
  /** Which number of the cell, from 0 ("11 / 37 / 85 / 149": p99 is 2). Default 0. */
  index?: number;
  better: 'lower' | 'higher';
  unit: string;
  /** A change smaller than this is never flagged (2 → 4 ms is noise, not a regression). Default 0. */
  minChange?: number;
  /** False for what a machine's speed does not change (bytes of JS, a rate-limited sync). Default true. */
  scales?: boolean;
}

export interface Regression {
  label: string;
  unit: string;
  now: number;
  before: number;
  /** How much worse, as a fraction: 0.65 = 65 % worse. */
  worse: number;
  /** The earlier row's first cell (its date). */
  beforeWhen: string;
  /** What it was compared with: 'the last row of this machine (…)' or '… scaled by …'. */
  basis: string;
}

/** The cells of a markdown table row, trimmed: "| a | b |" → ["a", "b"]. */
export function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** The numbers written in a cell, in order: "1,137 (41/96)" → [1137, 41, 96]; "–" → []. */
export function numbersIn(cell: string): number[] {
  return [...cell.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g)].map((m) =>
    Number(m[0].replaceAll(',', '')),
  );
}

/** The figure's value in a row (by the table's header), or undefined when the row has none. */
export function figureIn(header: string[], row: string, f: WatchedFigure): number | undefined {
  const at = header.indexOf(f.column);
  if (at < 0) return undefined;
  return numbersIn(cellsOf(row)[at] ?? '')[f.index ?? 0];
}

/** How much worse `now` is than `before` (0 when as good or better). */
export function howMuchWorse(now: number, before: number, better: 'lower' | 'higher'): number {
  if (better === 'lower') return before > 0 ? Math.max(0, now / before - 1) : 0;
  return now > 0 ? Math.max(0, before / now - 1) : before > 0 ? Number.POSITIVE_INFINITY : 0;
}

/** The earlier row a figure is compared with, and how; undefined when none may be. */
interface Comparison {
  row: string;
  /** How much slower this machine is than the row's (1 on the same machine). */
  slower: number;
  basis: string;
}

const r2 = (n: number) => n.toFixed(2);

/** How far apart the loop's and bare Fastify's ratios may be before a scaled comparison is refused. */
export const CALIBRATIONS_AGREE_WITHIN = 2;

function comparisonFor(
  rows: readonly string[],
  now: Calibration | undefined,
): Comparison | { refused: string } | undefined {
  if (!now) return undefined;
  const same = rows.findLast((row) => calibrationIn(cellsOf(row))?.machine === now.machine);
  if (same)
    return {
      row: same,
      slower: 1,
      basis: `compared with the last row of this machine (${now.machine}, ${cellsOf(same)[0]}), figures as they are`,
    };
  const other = rows.findLast((row) => calibrationIn(cellsOf(row)) !== undefined);
  const then = other === undefined ? undefined : calibrationIn(cellsOf(other));
  if (!other || !then) return undefined;
  const byLoop = now.loopMs / then.loopMs;
  const byFastify = then.fastifyPerSecond / now.fastifyPerSecond;
  // The two measures of one pair of machines agree within a few tens of per cent; far apart, one of
  // the runs was calibrated on a busy machine (bare Fastify shares the cores, the loop barely), and
  // scaling by it would raise or hide alarms at random.
  if (Math.max(byLoop, byFastify) / Math.min(byLoop, byFastify) > CALIBRATIONS_AGREE_WITHIN)
    return {
      refused: `nothing compared: the calibrations of this machine ${now.machine} and of the last calibrated row (${cellsOf(other)[0]}, machine ${then.machine}) disagree (loop ×${r2(byLoop)}, bare Fastify ×${r2(byFastify)}): one of the runs was disturbed`,
    };
  const slower = slowness(now, then);
  return {
    row: other,
    slower,
    basis: `compared with the last calibrated row (${cellsOf(other)[0]}, machine ${then.machine}), scaled: this machine ${now.machine} is ${r2(slower)}× as slow (loop ${Math.round(now.loopMs)} vs ${Math.round(then.loopMs)} ms, bare Fastify ${Math.round(now.fastifyPerSecond)} vs ${Math.round(then.fastifyPerSecond)}/s)`,
  };
}

/**
 * How `current` is compared, per figure: which earlier row (same kind, holding the figure) and how.
 * `bases` say it in words; with no calibrated earlier row it says why nothing was compared.
 */
export function guardRow(opts: {
  header: string[];
  earlier: readonly string[];
  current: string;
  figures: readonly WatchedFigure[];
  kind?: (cells: string[]) => string | undefined;
  threshold?: number;
}): { found: Regression[]; bases: string[] } {
  const { header, earlier, current, figures, kind = () => undefined, threshold = 0.5 } = opts;
  const currentKind = kind(cellsOf(current));
  const calibration = calibrationIn(cellsOf(current));
  const found: Regression[] = [];
  const bases = new Set<string>();
  for (const f of figures) {
    const now = figureIn(header, current, f);
    if (now === undefined) continue;
    const candidates = earlier.filter(
      (row) => figureIn(header, row, f) !== undefined && kind(cellsOf(row)) === currentKind,
    );
    if (candidates.length === 0) continue;
    const c = comparisonFor(candidates, calibration);
    if (!c) {
      bases.add(
        calibration
          ? `nothing compared: no earlier row of this machine (${calibration.machine}) nor any with a calibration (${candidates.length} older rows carry none)`
          : 'nothing compared: this row carries no calibration',
      );
      continue;
    }
    if ('refused' in c) {
      bases.add(c.refused);
      continue;
    }
    bases.add(c.basis);
    const recorded = figureIn(header, c.row, f) as number;
    const factor = f.scales === false ? 1 : f.better === 'lower' ? c.slower : 1 / c.slower;
    const before = recorded * factor;
    const worse = howMuchWorse(now, before, f.better);
    if (worse > threshold && Math.abs(now - before) >= (f.minChange ?? 0)) {
      found.push({
        label: f.label,
        unit: f.unit,
        now,
        before: factor === 1 ? before : Math.round(before * 10) / 10,
        worse,
        beforeWhen: cellsOf(c.row)[0] ?? '',
        basis:
          c.slower === 1 ? 'the last row of this machine' : `the last calibrated row, scaled ×${r2(factor)}`,
      });
    }
  }
  return { found, bases: [...bases] };
}

/** The regressions alone (`guardRow`). */
export function regressions(opts: Parameters<typeof guardRow>[0]): Regression[] {
  return guardRow(opts).found;
}

const shown = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : String(n));

/**
 * "!!! REGRESSION: pipeline p99 412 ms is 65 % worse than the last row of this machine (250 ms,
 * 2026-11-20 17:00Z)"; scaled: "… than the last calibrated row, scaled ×1.93 (482.5 ms, …)".
 */
export function regressionLine(r: Regression): string {
  const pct = Number.isFinite(r.worse) ? `${Math.round(r.worse * 100)} %` : 'infinitely';
  return `!!! REGRESSION: ${r.label} ${shown(r.now)} ${r.unit} is ${pct} worse than ${r.basis} (${shown(r.before)} ${r.unit}, ${r.beforeWhen})`;
}

/** The header cells of the table in `text` that holds `row` (a row line already in the file). */
export function headerOfRow(text: string, row: string): string[] | undefined {
  const lines = text.split('\n');
  let at = lines.indexOf(row);
  if (at < 0) return undefined;
  while (at > 0 && lines[at - 1]?.startsWith('|')) at -= 1;
  return cellsOf(lines[at] as string);
}
