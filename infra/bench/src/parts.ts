/**
 * Each part of `npm run bench` stands alone: one that fails (throws, or answers wrong: `check`) is
 * reported and the others still run, and every figure measured is still printed and recorded before
 * the run exits with the failure.
 */
export class BenchParts {
  readonly failed: string[] = [];

  constructor(private readonly log: (line: string) => void) {}

  /** The part's figures, or undefined when it failed (logged, and remembered for the exit). */
  async run<T>(name: string, measure: () => Promise<T>): Promise<T | undefined> {
    try {
      return await measure();
    } catch (err) {
      this.failed.push(name);
      const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
      this.log(`${name}: FAILED, no figures: ${text}`);
      return undefined;
    }
  }

  /**
   * A part whose figures came with wrong answers (answers.ts): its figures are kept and printed, its
   * row says FAILED, and it fails the run as a part that threw does.
   */
  check(name: string, problems: readonly string[]): void {
    if (problems.length === 0) return;
    if (!this.failed.includes(name)) this.failed.push(name);
    for (const p of problems) this.log(`${name}: FAILED, wrong answers: ${p}`);
  }

  /** After printing: the run fails if a part did. */
  throwIfFailed(): void {
    if (this.failed.length > 0) throw new Error(`bench parts failed: ${this.failed.join(', ')}`);
  }
}
