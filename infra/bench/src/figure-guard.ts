/**
 * Which figures of infra/bench/bench-results.md each part's new rows are compared on (regressions.ts), and
 * the comparison of a run's rows with the rows already recorded. Columns are named by their header
 * text; a column that is renamed is simply not compared until the next row of the new name exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cellsOf, guardRow, headerOfRow, regressionLine, type WatchedFigure } from './regressions';

const ms = (label: string, column: string, index: number, minChange: number): WatchedFigure => ({
  label,
  column,
  index,
  better: 'lower',
  unit: 'ms',
  minChange,
});
const perSecond = (label: string, column: string, index: number): WatchedFigure => ({
  label,
  column,
  index,
  better: 'higher',
  unit: 'req/s',
});

/** The runs table (gateway, catalogue, pipeline, checkouts, frontend). */
export const RUNS_FIGURES: WatchedFigure[] = [
  perSecond('gateway: direct', 'direct req/s (p50/p99 ms)', 0),
  perSecond('gateway: via gateway', 'via gateway req/s (p50/p99 ms)', 0),
  ms('gateway: via gateway p99', 'via gateway req/s (p50/p99 ms)', 2, 20),
  ms('pipeline p50', 'write → job p50 / p90 / p99 / max ms', 0, 5),
  ms('pipeline p99', 'write → job p50 / p90 / p99 / max ms', 2, 20),
  perSecond('catalogue: product list', 'product list req/s (p99) vs /healthz', 0),
  perSecond('catalogue: /healthz', 'product list req/s (p99) vs /healthz', 2),
  ms('checkouts p99', 'checkouts ok, p99 ms', 2, 100),
  { ...ms('frontend: JS gzip `/`', 'JS KB gzip `/` (≤ 300)', 0, 10), unit: 'KB', scales: false },
  ms('frontend: LCP `/`', 'LCP ms `/` · inventory · blank', 0, 100),
  ms('frontend: LCP inventory', 'LCP ms `/` · inventory · blank', 1, 100),
];

/** Pipeline rows are compared with rows of the same rate ("… events at 500/s" in the settings). */
export function runKind(cells: string[]): string | undefined {
  const rate = cells.map((c) => /events at (\d+)\/s/.exec(c)?.[1]).find(Boolean);
  return rate ? `${rate}/s` : undefined;
}

// Paced by the QuickBooks rate limit, not by the machine.
export const QBO_FIGURES = [{ ...ms('qbo sync elapsed', 'elapsed s', 0, 5), unit: 's', scales: false }];
export const ORDERS_FIGURES = [
  ms('orders: prefix search p95', 'prefix search p50 / p95 ms, req/s', 1, 5),
  ms('orders: status filter p95', 'status filter p50 / p95 ms, req/s', 1, 5),
  ms('orders: live update p99', 'live update p50 / p99 ms (received)', 1, 20),
];
export const USERS_FIGURES = [
  ms('users list p95', 'users list p50 / p95 ms, req/s', 1, 5),
  ms('users search p95', 'users search p50 / p95 ms, req/s', 1, 5),
  ms('companies list p95', 'companies list p50 / p95 ms, req/s', 1, 5),
  ms('companies search p95', 'companies search p50 / p95 ms, req/s', 1, 5),
];
export const IMPORT_FIGURES = [
  ms('import: dialog opens p95', 'dialog opens p50 / p95 ms', 1, 20),
  ms('import: search p95', 'search p50 / p95 ms', 1, 20),
];
export const AVAILABILITY_FIGURES = [
  ms('availability: race p99', 'race p50 / p99 ms', 1, 100),
  ms('availability: date check p95', '40-product date check p50 / p95 ms', 1, 5),
  ms('availability: calendar p95', '60-product calendar p50 / p95 ms', 1, 5),
];

/** The pipeline's knee (pipeline-knee.ts): the highest rate that held p99 ≤ 150 ms. */
export const KNEE_FIGURES = [
  { ...perSecond('pipeline knee', 'knee (p99 ≤ 150 ms) /s', 0), unit: 'events/s' },
];

export const ACCEPTANCE_FIGURES = [ms('acceptance: 100 at once p99', 'p50 / p99 / max ms', 1, 100)];

export interface GuardedTable {
  /** The part's name, as the guard's lines say it. */
  part: string;
  /** The table's rows already in the file, oldest first. */
  earlier: readonly string[];
  /** This run's new rows for it. */
  rows: readonly string[];
  figures: readonly WatchedFigure[];
  kind?: (cells: string[]) => string | undefined;
}

/**
 * What the guard says of this run's rows in `file`'s tables: per part, what each row was compared
 * with (`guard …` lines), and a loud line for each figure more than 50 % worse (`alarms`).
 */
export function figureGuard(
  file: string,
  tables: readonly GuardedTable[],
): { lines: string[]; alarms: number } {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines: string[] = [];
  let alarms = 0;
  for (const t of tables) {
    if (t.rows.length === 0) continue;
    const last = t.earlier.at(-1);
    const header = last === undefined ? undefined : headerOfRow(text, last);
    if (!header) {
      lines.push(`guard, ${t.part}: nothing compared, no earlier row`);
      continue;
    }
    for (const current of t.rows) {
      const kind = t.kind?.(cellsOf(current));
      const { found, bases } = guardRow({
        header,
        earlier: t.earlier,
        current,
        figures: t.figures,
        kind: t.kind,
      });
      const name = kind ? `${t.part} at ${kind}` : t.part;
      lines.push(
        `guard, ${name}: ${bases.join('; ') || 'nothing compared, no earlier row holds its figures'}`,
      );
      for (const r of found) lines.push(regressionLine(kind ? { ...r, label: `${r.label} at ${kind}` } : r));
      alarms += found.length;
    }
  }
  return { lines, alarms };
}
