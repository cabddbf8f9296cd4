/**
 * One page of a staff list computed in memory from the roster (every live user's list fields),
 * with the same meaning as the Mongo query the kit's list syntax builds (`listFilter`): equality,
 * `$in`, an anchored prefix `$regex`, `null` for "missing"; sorted by the order field then `_id`
 * (ties never repeat or skip a row between pages), missing values first as Mongo sorts them.
 * A filter it does not understand answers undefined, and the caller asks Mongo instead.
 */
export type RosterValue = string | number | boolean | null;
export type RosterEntry = { _id: string } & Record<string, RosterValue>;

export interface ListQuery {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  skip: number;
  limit: number;
}

type Test = (value: RosterValue | undefined) => boolean;

const isPlain = (v: unknown): v is RosterValue =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

function condition(expected: unknown): Test | undefined {
  if (expected === null) return (v) => v === null || v === undefined;
  if (isPlain(expected)) return (v) => v === expected;
  if (typeof expected !== 'object') return undefined;
  const ops = expected as Record<string, unknown>;
  const keys = Object.keys(ops);
  if (keys.length === 1 && Array.isArray(ops.$in) && ops.$in.every(isPlain)) {
    const allowed = new Set(ops.$in);
    return (v) => allowed.has(v ?? null);
  }
  if (keys.length === 1 && typeof ops.$regex === 'string' && ops.$regex.startsWith('^')) {
    const pattern = new RegExp(ops.$regex);
    return (v) => typeof v === 'string' && pattern.test(v);
  }
  return undefined;
}

/** Mongo's order of the values a roster holds: missing/null < numbers < strings < booleans. */
function rank(v: RosterValue | undefined): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? 1 : typeof v === 'string' ? 2 : 3;
}

export function compareValues(a: RosterValue | undefined, b: RosterValue | undefined): number {
  const byType = rank(a) - rank(b);
  if (byType !== 0 || a === null || a === undefined) return byType;
  return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
}

export function sortRoster(entries: readonly RosterEntry[], sort: ListQuery['sort']): RosterEntry[] {
  const keys = Object.entries(sort);
  return [...entries].sort((x, y) => {
    for (const [path, dir] of keys) {
      const c = compareValues(x[path], y[path]);
      if (c !== 0) return c * dir;
    }
    return 0;
  });
}

/** The ids of the page and the total, or undefined when the filter is beyond this matcher. */
export function rosterPage(
  sorted: readonly RosterEntry[],
  list: ListQuery,
): { ids: string[]; total: number } | undefined {
  const tests: [string, Test][] = [];
  for (const [path, expected] of Object.entries(list.filter)) {
    const test = condition(expected);
    if (!test) return undefined;
    tests.push([path, test]);
  }
  const matching = tests.length === 0 ? sorted : sorted.filter((e) => tests.every(([p, t]) => t(e[p])));
  return {
    ids: matching.slice(list.skip, list.skip + list.limit).map((e) => e._id),
    total: matching.length,
  };
}
