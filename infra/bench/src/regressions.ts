/**
 * The bench guards its own figures: each new row is compared with the last recorded row of the same
 * part (same table; for the event pipeline, the same rate), and a figure more than 50 % worse gets a
 * loud line. Worse means slower or fewer: a time or size grown past 1.5×, or a rate shrunk below
 * 1/1.5 of the last one. Nothing fails on it: the machine is shared, and the line asks a person to look.
 */

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

/**
 * The figures of `current` more than `threshold` worse than in the last of `earlier` that holds the
 * same figure and is of the same kind (`kind`, e.g. the pipeline's rate; rows of another kind, or
 * without the figure — a run of another part — are passed over).
 */
export function regressions(opts: {
  header: string[];
  earlier: readonly string[];
  current: string;
  figures: readonly WatchedFigure[];
  kind?: (cells: string[]) => string | undefined;
  threshold?: number;
}): Regression[] {
  const { header, earlier, current, figures, kind = () => undefined, threshold = 0.5 } = opts;
  const currentKind = kind(cellsOf(current));
  const found: Regression[] = [];
  for (const f of figures) {
    const now = figureIn(header, current, f);
    if (now === undefined) continue;
    const last = earlier.findLast(
      (row) => figureIn(header, row, f) !== undefined && kind(cellsOf(row)) === currentKind,
    );
    if (!last) continue;
    const before = figureIn(header, last, f) as number;
    const worse = howMuchWorse(now, before, f.better);
    if (worse > threshold && Math.abs(now - before) >= (f.minChange ?? 0)) {
      found.push({ label: f.label, unit: f.unit, now, before, worse, beforeWhen: cellsOf(last)[0] ?? '' });
    }
  }
  return found;
}

const shown = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : String(n));

/** "!!! REGRESSION: pipeline p99 412 ms is 65 % worse than the last row (250 ms, 2026-11-20 17:00Z)" */
export function regressionLine(r: Regression): string {
  const pct = Number.isFinite(r.worse) ? `${Math.round(r.worse * 100)} %` : 'infinitely';
  return `!!! REGRESSION: ${r.label} ${shown(r.now)} ${r.unit} is ${pct} worse than the last row (${shown(r.before)} ${r.unit}, ${r.beforeWhen})`;
}

/** The header cells of the table in `text` that holds `row` (a row line already in the file). */
export function headerOfRow(text: string, row: string): string[] | undefined {
  const lines = text.split('\n');
  let at = lines.indexOf(row);
  if (at < 0) return undefined;
  while (at > 0 && lines[at - 1]?.startsWith('|')) at -= 1;
  return cellsOf(lines[at] as string);
}
