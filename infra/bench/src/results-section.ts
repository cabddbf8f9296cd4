import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * A table of its own in infra/bench/bench-results.md (one row per run, newest last, its method below it)
 * for a measurement report.ts does not know. `row` tells this section's rows from every other table's,
 * so they can be read before report.ts rewrites the file and written back after.
 */
export function resultsSection(spec: {
  title: string;
  header: string[];
  row: RegExp;
  method: string;
  keep?: number;
}) {
  const keep = spec.keep ?? 20;
  return {
    /** This section's rows already in `file`. */
    rows(file: string): string[] {
      return existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => spec.row.test(line))
        : [];
    },
    /** Puts the section (rows given, newest last) at the end of `file`, replacing any there. */
    write(file: string, rows: string[]): void {
      if (rows.length === 0) return;
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
      let head = text;
      const at = text.indexOf(`\n${spec.title}\n`);
      if (at >= 0) {
        const next = text.indexOf('\n## ', at + 1);
        head = text.slice(0, at) + (next >= 0 ? text.slice(next) : '');
      }
      const section = [
        spec.title,
        '',
        `One row per run, newest last (last ${keep} kept).`,
        '',
        ...spec.header,
        ...rows.slice(-keep),
        '',
        spec.method,
      ];
      writeFileSync(file, `${head.replace(/\n+$/, '')}\n\n${section.join('\n')}\n`);
    },
  };
}
