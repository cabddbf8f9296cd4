/** The fault suite's pure parts: answer classes, rows from answers and expectations, the verdict, the table. */
import { pickFaults } from '../src/chaos/faults';
import {
  type Answer,
  answerClass,
  answeredInTime,
  type Expectation,
  faultRows,
  formatTable,
  notableAnswers,
  notExactlyOnce,
  rowFailures,
  verdict,
} from '../src/chaos/table';

const answer = (phase: string, ms: number, status?: number, failure?: Answer['failure']): Answer => ({
  phase,
  what: 'POST /api/estimate',
  ms,
  ...(status === undefined ? {} : { status }),
  ...(failure ? { failure } : {}),
});

describe('answer classes', () => {
  it('accepts 2xx, 4xx and 503; any other status is "other"', () => {
    expect(answerClass({ status: 201 })).toBe('2xx');
    expect(answerClass({ status: 409 })).toBe('4xx');
    expect(answerClass({ status: 503 })).toBe('503');
    expect(answerClass({ status: 500 })).toBe('other');
    expect(answerClass({ status: 502 })).toBe('other');
    expect(answerClass({ status: 504 })).toBe('other');
    expect(answerClass({ status: 302 })).toBe('other');
    expect(answerClass({ failure: 'refused' })).toBe('refused');
    expect(answerClass({ failure: 'none' })).toBe('none');
  });

  it('an accepted class answered after 5 s is not in time; at 5 s it is', () => {
    expect(answeredInTime(answer('x', 5_000, 503))).toBe(true);
    expect(answeredInTime(answer('x', 5_001, 200))).toBe(false);
    expect(answeredInTime(answer('x', 10, 500))).toBe(false);
    expect(answeredInTime(answer('x', 10, undefined, 'none'))).toBe(false);
  });
});

describe('rows and verdict', () => {
  const answers = [
    answer('baseline', 40, 201),
    answer('redis down', 1_900, 503),
    answer('redis down', 120, 200),
    answer('redis down', 6_200, 201),
    answer('kill gateway', 3, undefined, 'refused'),
    answer('kill order', 3, undefined, 'refused'),
    answer('kill order', 15_000, undefined, 'none'),
  ];
  const expectations: Expectation[] = [
    { phase: 'baseline', what: 'estimate', key: 'c1', found: 1 },
    { phase: 'redis down', what: 'e-mail: received', key: '1001', found: 0 },
    { phase: 'redis down', what: 'QuickBooks document', key: '1002', found: 2 },
  ];
  const rows = faultRows(
    ['baseline', 'redis down', 'kill gateway', 'kill order'],
    answers,
    expectations,
    (p) => p === 'kill gateway',
  );

  it('counts each phase: requests, classes, late, slowest, lost and doubled', () => {
    const [baseline, redis, gateway, order] = rows;
    expect(baseline).toMatchObject({ requests: 1, late: 0, lost: 0, doubled: 0 });
    expect(rowFailures(baseline as (typeof rows)[0])).toEqual([]);
    expect(redis?.classes).toMatchObject({ '2xx': 2, '503': 1 });
    expect(redis).toMatchObject({ requests: 3, late: 1, slowestMs: 6_200, lost: 1, doubled: 1 });
    expect(redis?.slowestWhat).toBe('201 POST /api/estimate');
    expect(gateway?.classes.refused).toBe(1);
    expect(order?.classes).toMatchObject({ refused: 1, none: 1 });
  });

  it('refusals pass only where allowed; late, lost, doubled and no answer fail', () => {
    const [, redis, gateway, order] = rows;
    expect(rowFailures(gateway as (typeof rows)[0])).toEqual([]);
    expect(rowFailures(order as (typeof rows)[0])).toEqual([
      '1 without an answer',
      '1 refused',
      '1 answered after 5 s',
    ]);
    expect(rowFailures(redis as (typeof rows)[0])).toEqual(['1 answered after 5 s', '1 lost', '1 doubled']);
    const v = verdict(rows, [{ name: 'consumer lag 0', ok: false, detail: 'decor.order: 3' }]);
    expect(v.ok).toBe(false);
    expect(v.failures).toContain('consumer lag 0: decor.order: 3');
    expect(v.failures).toContain('redis down: 1 lost');
    // The verdict names the slowest late answer (the report's list of them may be cut from a log).
    expect(v.failures).toContain('redis down: 1 answered after 5 s (slowest 201 POST /api/estimate, 6.20 s)');
    expect(verdict(rows.slice(0, 1), [{ name: 'lag', ok: true, detail: '' }]).ok).toBe(true);
  });

  it('a problem (a process not back) fails its row even with clean answers', () => {
    const [row] = faultRows(['kill cart'], [answer('kill cart', 5, 200)], [], undefined, {
      'kill cart': 'cart not answering /readyz 60 s after the fault',
    });
    expect(rowFailures(row as (typeof rows)[0])).toEqual(['cart not answering /readyz 60 s after the fault']);
  });

  it('prints one Markdown row per phase with the slowest answer in seconds and the verdict', () => {
    const table = formatTable(rows).split('\n');
    expect(table[0]).toBe(
      '| fault | requests | 2xx | 4xx | 503 | other 5xx | refused | no answer | slowest answer | lost | doubled | verdict |',
    );
    expect(table[2]).toBe('| baseline | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0.04 s | 0 | 0 | ok |');
    expect(table[3]).toBe(
      '| redis down | 3 | 2 | 0 | 1 | 0 | 0 | 0 | 6.20 s | 1 | 1 | FAIL: 1 answered after 5 s; 1 lost; 1 doubled |',
    );
    expect(table[4]).toContain('| 1 (gateway down) |');
    expect(formatTable(faultRows(['drain'], [], []))).toContain(
      '| drain | 0 | 0 | 0 | 0 | 0 | 0 | 0 | – | 0 | 0 | ok |',
    );
  });
});

describe('answers outside the bound', () => {
  it('groups them per phase, status (or refused / none) and request, with the slowest', () => {
    const lines = notableAnswers([
      answer('kafka down', 14_250, 504),
      answer('kafka down', 6_000, 504),
      answer('kafka down', 6_000, 201),
      answer('kafka down', 300, 201),
      answer('kill gateway', 2, undefined, 'refused'),
    ]);
    expect(lines).toEqual([
      'kafka down: 2× 504 POST /api/estimate (slowest 14.25 s)',
      'kafka down: 1× 201 POST /api/estimate (slowest 6.00 s)',
      'kill gateway: 1× refused POST /api/estimate (slowest 0.00 s)',
    ]);
  });
});

describe('what the data does not hold exactly once', () => {
  it('groups per phase and kind, missing and doubled, with a few keys', () => {
    const e = (phase: string, what: string, key: string, found: number): Expectation => ({
      phase,
      what,
      key,
      found,
    });
    expect(
      notExactlyOnce(
        [
          e('smtp down', 'e-mail: received', '1001', 0),
          e('smtp down', 'e-mail: received', '1002', 0),
          e('smtp down', 'e-mail: received', '1003', 2),
          e('smtp down', 'e-mail: received', '1004', 1),
          e('redis down', 'QuickBooks document', '1010', 3),
        ],
        1,
      ),
    ).toEqual([
      'smtp down: e-mail: received — 2 missing (1001, …), 1 more than once (1003)',
      'redis down: QuickBooks document — 1 more than once (1010)',
    ]);
  });
});

describe('picking faults by name', () => {
  const all = ['kill order', 'kill notification-worker', 'redis down'].map((name) => ({
    name,
    kind: 'kill' as const,
    refusalsAllowed: false,
    begin: async () => async () => undefined,
  }));
  it('takes the printed name, dashes for spaces, or an outage without "down"', () => {
    expect(pickFaults(all, ['kill-order', 'redis', 'kill notification worker']).map((f) => f.name)).toEqual([
      'kill order',
      'redis down',
      'kill notification-worker',
    ]);
    expect(() => pickFaults(all, ['kill kafka'])).toThrow(/no fault named 'kill kafka'/);
  });
});
