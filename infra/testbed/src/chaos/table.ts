/**
 * The fault suite's pure parts: how one request's answer is classed, what each fault's row counts,
 * its verdict, and the printed table. No I/O here (unit-tested in infra/testbed/test/chaos-table.test.ts).
 */

/** Every request must be answered within this (issue 16: "an answer … within 5 s"). */
export const ANSWER_WITHIN_MS = 5_000;

/** One request of the load: its answer's status, or why there was none. */
export interface Answer {
  /** The phase it was sent in: 'baseline', a fault's name, or 'drain'. */
  phase: string;
  /** What was asked, e.g. 'POST /api/estimate' (for the slowest answer's line). */
  what: string;
  ms: number;
  status?: number;
  /**
   * refused: the process answering was itself down or going down (connection refused, or its kept-alive
   * connection dropped under the request); none: no answer in time.
   */
  failure?: 'refused' | 'none';
}

export type AnswerClass = '2xx' | '4xx' | '503' | 'other' | 'refused' | 'none';

/** 2xx, 4xx and 503 are answers the issue accepts; any other status (500, 502, 504…) is 'other'. */
export function answerClass(a: Pick<Answer, 'status' | 'failure'>): AnswerClass {
  if (a.failure) return a.failure;
  const s = a.status ?? 0;
  if (s >= 200 && s < 300) return '2xx';
  if (s >= 400 && s < 500) return '4xx';
  if (s === 503) return '503';
  return 'other';
}

/** Its status, or why there was none: '503', 'refused'. */
function answerLabel(a: Answer): string {
  const cls = answerClass(a);
  return cls === 'refused' || cls === 'none' ? cls : String(a.status);
}

/** Answered, in a class the issue accepts, and within the bound. */
export const answeredInTime = (a: Answer) =>
  ['2xx', '4xx', '503'].includes(answerClass(a)) && a.ms <= ANSWER_WITHIN_MS;

/** Something the data must hold exactly once, found `found` times (the checks fill these in). */
export interface Expectation {
  phase: string;
  /** e.g. 'estimate', 'cart checked out', 'e-mail: received', 'QuickBooks document' */
  what: string;
  key: string;
  found: number;
}

export interface FaultRow {
  fault: string;
  requests: number;
  classes: Record<AnswerClass, number>;
  /** Answered after more than ANSWER_WITHIN_MS (any class). */
  late: number;
  slowestMs: number;
  /** The slowest answer's status and request, e.g. '503 POST /api/estimate'. */
  slowestWhat: string;
  lost: number;
  doubled: number;
  /** Refusals are accepted only when the gateway itself was the process killed (nothing listens then). */
  refusalsAllowed: boolean;
  /** Set when the fault could not be run or recovered from (e.g. a process not back). */
  problem?: string;
}

const emptyClasses = (): Record<AnswerClass, number> => ({
  '2xx': 0,
  '4xx': 0,
  '503': 0,
  other: 0,
  refused: 0,
  none: 0,
});

/** The rows, one per phase in the order given, from the answers and the expectations. */
export function faultRows(
  phases: string[],
  answers: Answer[],
  expectations: Expectation[],
  refusalsAllowedIn: (phase: string) => boolean = () => false,
  problems: Record<string, string> = {},
): FaultRow[] {
  return phases.map((fault) => {
    const mine = answers.filter((a) => a.phase === fault);
    const classes = emptyClasses();
    for (const a of mine) classes[answerClass(a)]++;
    const slowest = mine.reduce<Answer | undefined>((s, a) => (!s || a.ms > s.ms ? a : s), undefined);
    const expected = expectations.filter((e) => e.phase === fault);
    return {
      fault,
      requests: mine.length,
      classes,
      late: mine.filter((a) => a.ms > ANSWER_WITHIN_MS).length,
      slowestMs: slowest?.ms ?? 0,
      slowestWhat: slowest ? `${answerLabel(slowest)} ${slowest.what}` : '',
      lost: expected.filter((e) => e.found === 0).length,
      doubled: expected.filter((e) => e.found > 1).length,
      refusalsAllowed: refusalsAllowedIn(fault),
      ...(problems[fault] ? { problem: problems[fault] } : {}),
    };
  });
}

/**
 * Why a row fails (empty: it passes). `naming` adds the slowest late answer: the verdict's lines
 * lead the report, whose own list of late answers may be cut from a CI log.
 */
export function rowFailures(r: FaultRow, naming = false): string[] {
  const why: string[] = [];
  if (r.problem) why.push(r.problem);
  if (r.classes.other > 0) why.push(`${r.classes.other} answered with another 5xx`);
  if (r.classes.none > 0) why.push(`${r.classes.none} without an answer`);
  if (r.classes.refused > 0 && !r.refusalsAllowed) why.push(`${r.classes.refused} refused`);
  if (r.late > 0)
    why.push(
      `${r.late} answered after ${ANSWER_WITHIN_MS / 1000} s${naming ? ` (slowest ${r.slowestWhat}, ${seconds(r.slowestMs)})` : ''}`,
    );
  if (r.lost > 0) why.push(`${r.lost} lost`);
  if (r.doubled > 0) why.push(`${r.doubled} doubled`);
  return why;
}

/** A check over the whole run (dead letters, lag, /readyz…): passed, and what was seen. */
export interface RunCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Verdict {
  ok: boolean;
  failures: string[];
}

export function verdict(rows: FaultRow[], checks: RunCheck[]): Verdict {
  const failures = [
    ...rows.flatMap((r) => rowFailures(r, true).map((w) => `${r.fault}: ${w}`)),
    ...checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`),
  ];
  return { ok: failures.length === 0, failures };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The table as Markdown (it reads as plain text in a terminal too). */
export function formatTable(rows: FaultRow[]): string {
  const head =
    '| fault | requests | 2xx | 4xx | 503 | other 5xx | refused | no answer | slowest answer | lost | doubled | verdict |';
  const rule = '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|';
  const lines = rows.map((r) => {
    const c = r.classes;
    const failures = rowFailures(r);
    const refused = r.refusalsAllowed && c.refused > 0 ? `${c.refused} (gateway down)` : String(c.refused);
    return `| ${[
      r.fault,
      r.requests,
      c['2xx'],
      c['4xx'],
      c['503'],
      c.other,
      refused,
      c.none,
      r.requests > 0 ? seconds(r.slowestMs) : '–',
      r.lost,
      r.doubled,
      failures.length === 0 ? 'ok' : `FAIL: ${failures.join('; ')}`,
    ].join(' | ')} |`;
  });
  return [head, rule, ...lines].join('\n');
}

/** What failed the answer bound, grouped per phase, class and request: `kafka down: 30× 504 POST /api/estimate (slowest 14.25 s)`. */
export function notableAnswers(answers: Answer[]): string[] {
  const groups = new Map<string, { n: number; slowest: number }>();
  for (const a of answers) {
    if (answeredInTime(a)) continue;
    const key = `${a.phase}: ${answerLabel(a)} ${a.what}`;
    const g = groups.get(key) ?? { n: 0, slowest: 0 };
    g.n++;
    g.slowest = Math.max(g.slowest, a.ms);
    groups.set(key, g);
  }
  return [...groups.entries()].map(([key, g]) => {
    const [phase, rest] = key.split(/: (.*)/s) as [string, string];
    return `${phase}: ${g.n}× ${rest} (slowest ${seconds(g.slowest)})`;
  });
}

/** Expectations not met exactly once, per phase and kind: `smtp down: e-mail: received — 2 missing (1001, 1002)`. */
export function notExactlyOnce(expectations: Expectation[], examples = 5): string[] {
  const groups = new Map<string, { missing: string[]; twice: string[] }>();
  for (const e of expectations) {
    if (e.found === 1) continue;
    const key = `${e.phase}: ${e.what}`;
    const g = groups.get(key) ?? { missing: [], twice: [] };
    (e.found === 0 ? g.missing : g.twice).push(e.key);
    groups.set(key, g);
  }
  const list = (keys: string[]) =>
    `${keys.slice(0, examples).join(', ')}${keys.length > examples ? ', …' : ''}`;
  return [...groups.entries()].map(([key, g]) =>
    [
      `${key} —`,
      g.missing.length > 0 ? ` ${g.missing.length} missing (${list(g.missing)})` : '',
      g.missing.length > 0 && g.twice.length > 0 ? ',' : '',
      g.twice.length > 0 ? ` ${g.twice.length} more than once (${list(g.twice)})` : '',
    ].join(''),
  );
}

export function formatChecks(checks: RunCheck[]): string {
  return checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`).join('\n');
}

/** The report's lines after the tables: answers outside the bound, expectations not met once, refused submissions. */
export function problemLines(
  answers: Answer[],
  missing: Expectation[],
  refusedSubmits: string[],
  lateTitle = 'answers outside the bound',
): string[] {
  const late = notableAnswers(answers);
  return [
    ...(late.length > 0 ? ['', `${lateTitle}:`, ...late.map((l) => `  ${l}`)] : []),
    ...(missing.length > 0
      ? ['', 'not exactly once:', ...notExactlyOnce(missing).map((line) => `  ${line}`)]
      : []),
    ...(refusedSubmits.length > 0
      ? ['', `submissions refused (4xx): ${refusedSubmits.slice(0, 10).join('; ')}`]
      : []),
  ];
}
