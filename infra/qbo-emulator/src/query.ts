/**
 * The subset of Intuit's query language the clients use (notes §2, §6):
 *   select *|count(*) from <Entity> [where f op v [and …]] [orderby f [asc|desc][, …]]
 *   [startposition n] [maxresults m]
 * ops = IN < > <= >= LIKE (and !=); strings in '…' with \' escapes; booleans and numbers bare.
 */
import { faults } from './faults';
import { COMPANY_INFO_FIELDS, FIELDS } from './fields';
import type { Rec } from './store';

export const QUERY_ENTITIES = [
  'Customer',
  'Item',
  'Estimate',
  'Invoice',
  'Payment',
  'RefundReceipt',
  'CompanyInfo',
] as const;
export type QueryEntity = (typeof QUERY_ENTITIES)[number];

type Literal = string | number | boolean;
export interface Condition {
  field: string;
  op: '=' | '!=' | '<' | '>' | '<=' | '>=' | 'IN' | 'LIKE';
  value: Literal | Literal[];
}
export interface Query {
  count: boolean;
  entity: QueryEntity;
  where: Condition[];
  orderBy: { field: string; desc: boolean }[];
  startPosition: number;
  maxResults: number;
}

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

type Token =
  | { kind: 'word'; text: string; pos: number }
  | { kind: 'string'; text: string; pos: number }
  | { kind: 'number'; text: string; pos: number }
  | { kind: 'punct'; text: string; pos: number };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const pos = i + 1;
    if (c === "'") {
      let text = '';
      i++;
      for (;;) {
        if (i >= q.length)
          throw faults.queryParse(`Lexical error at line 1, column ${pos}: unterminated string`);
        const ch = q[i] as string;
        if (ch === '\\' && i + 1 < q.length) {
          text += q[i + 1];
          i += 2;
        } else if (ch === "'") {
          i++;
          break;
        } else {
          text += ch;
          i++;
        }
      }
      tokens.push({ kind: 'string', text, pos });
      continue;
    }
    const two = q.slice(i, i + 2);
    if (two === '<=' || two === '>=' || two === '!=' || two === '<>') {
      tokens.push({ kind: 'punct', text: two === '<>' ? '!=' : two, pos });
      i += 2;
      continue;
    }
    if ('=<>(),*'.includes(c)) {
      tokens.push({ kind: 'punct', text: c, pos });
      i++;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(q.slice(i));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], pos });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][\w.]*/.exec(q.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0], pos });
      i += word[0].length;
      continue;
    }
    throw faults.queryParse(`Lexical error at line 1, column ${pos}.  Encountered: "${c}"`);
  }
  return tokens;
}

export function parseQuery(text: string): Query {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const fail = (expected: string): never => {
    const t = tokens[i];
    throw faults.queryParse(
      t
        ? `Encountered " ${t.kind === 'string' ? `'${t.text}'` : t.text} " at line 1, column ${t.pos}.\nWas expecting: ${expected}`
        : `Encountered "<EOF>" at the end of the query.\nWas expecting: ${expected}`,
    );
  };
  const isWord = (w: string) => {
    const t = peek();
    return t?.kind === 'word' && t.text.toLowerCase() === w;
  };
  const word = (w: string) => {
    if (!isWord(w)) fail(w.toUpperCase());
    i++;
  };
  const punct = (p: string) => {
    const t = peek();
    if (t?.kind !== 'punct' || t.text !== p) fail(`"${p}"`);
    i++;
  };
  const identifier = (): string => {
    const t = peek();
    if (t?.kind !== 'word') return fail('<ID>');
    i++;
    return t.text;
  };
  const literal = (): Literal => {
    const t = peek();
    if (!t) return fail('a value');
    if (t.kind === 'string') {
      i++;
      return t.text;
    }
    if (t.kind === 'number') {
      i++;
      return Number(t.text);
    }
    if (t.kind === 'word' && /^(true|false)$/i.test(t.text)) {
      i++;
      return t.text.toLowerCase() === 'true';
    }
    return fail('a string, number or boolean');
  };
  const integer = (): number => {
    const t = peek();
    if (t?.kind !== 'number' || !/^\d+$/.test(t.text)) return fail('<INTEGER>');
    i++;
    return Number(t.text);
  };

  word('select');
  let count = false;
  if (isWord('count')) {
    i++;
    punct('(');
    punct('*');
    punct(')');
    count = true;
  } else punct('*');
  word('from');
  const entityText = identifier();
  const entity = QUERY_ENTITIES.find((e) => e.toLowerCase() === entityText.toLowerCase());
  if (!entity) throw faults.queryInvalid(`Entity ${entityText} is not supported`);
  const where: Condition[] = [];
  if (isWord('where')) {
    i++;
    do {
      const field = identifier();
      const t = peek();
      let op: Condition['op'];
      if (t?.kind === 'punct' && ['=', '!=', '<', '>', '<=', '>='].includes(t.text)) {
        op = t.text as Condition['op'];
        i++;
      } else if (isWord('in')) {
        op = 'IN';
        i++;
      } else if (isWord('like')) {
        op = 'LIKE';
        i++;
      } else return fail('an operator (=, <, >, <=, >=, IN, LIKE)');
      if (op === 'IN') {
        punct('(');
        const values = [literal()];
        while (peek()?.kind === 'punct' && peek()?.text === ',') {
          i++;
          values.push(literal());
        }
        punct(')');
        where.push({ field, op, value: values });
      } else where.push({ field, op, value: literal() });
      if (isWord('or')) throw faults.queryParse(`OR is not supported (column ${peek()?.pos})`);
    } while (isWord('and') && ++i);
  }
  const orderBy: Query['orderBy'] = [];
  if (isWord('orderby') || isWord('order')) {
    if (isWord('order')) {
      i++;
      word('by');
    } else i++;
    do {
      const field = identifier();
      let desc = false;
      if (isWord('asc')) i++;
      else if (isWord('desc')) {
        desc = true;
        i++;
      }
      orderBy.push({ field, desc });
    } while (peek()?.kind === 'punct' && peek()?.text === ',' && ++i);
  }
  let startPosition = 1;
  let maxResults = DEFAULT_PAGE;
  for (let k = 0; k < 2; k++) {
    if (isWord('startposition')) {
      i++;
      startPosition = Math.max(1, integer());
    } else if (isWord('maxresults')) {
      i++;
      maxResults = integer();
    }
  }
  if (i < tokens.length) fail('<EOF>');
  if (maxResults > MAX_PAGE)
    throw faults.queryInvalid(`MaxResults ${maxResults} exceeds the maximum of ${MAX_PAGE}`);
  const known = entity === 'CompanyInfo' ? COMPANY_INFO_FIELDS : FIELDS[entity];
  for (const f of [...where.map((w) => w.field), ...orderBy.map((o) => o.field)]) {
    const top = f.split('.')[0] as string;
    if (![...known].some((k) => k.toLowerCase() === top.toLowerCase())) {
      throw faults.queryInvalid(`property '${f}' is not queryable`);
    }
  }
  return { count, entity, where, orderBy, startPosition, maxResults };
}

/** A field by dotted path, names matched case-insensitively. */
function valueAt(rec: Rec, path: string): unknown {
  let cur: unknown = rec;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    const obj = cur as Rec;
    const key = Object.keys(obj).find((k) => k.toLowerCase() === part.toLowerCase());
    // A reference compared as a whole compares its value (CustomerRef = '5').
    cur = key === undefined ? undefined : obj[key];
  }
  if (typeof cur === 'object' && cur !== null && 'value' in cur) return (cur as Rec).value;
  return cur;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

/** <0, 0, >0, or undefined when not comparable. */
function compare(a: unknown, b: Literal): number | undefined {
  if (a === undefined || a === null) return undefined;
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    const x = String(a).toLowerCase();
    const y = String(b).toLowerCase();
    return x === y ? 0 : x < y ? -1 : 1;
  }
  const an = typeof a === 'number' ? a : typeof a === 'string' && /^-?\d+(\.\d+)?$/.test(a) ? Number(a) : NaN;
  const bn = typeof b === 'number' ? b : /^-?\d+(\.\d+)?$/.test(b) ? Number(b) : NaN;
  if (!Number.isNaN(an) && !Number.isNaN(bn)) return an - bn;
  const as = String(a);
  if (DATE.test(as) && DATE.test(String(b))) {
    const ad = Date.parse(as);
    const bd = Date.parse(String(b));
    if (!Number.isNaN(ad) && !Number.isNaN(bd)) return ad - bd;
  }
  return as.toLowerCase().localeCompare(String(b).toLowerCase());
}

function like(a: unknown, pattern: Literal): boolean {
  if (a === undefined || a === null) return false;
  const re = String(pattern)
    .split('%')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${re}$`, 'is').test(String(a));
}

function matches(rec: Rec, c: Condition): boolean {
  const a = valueAt(rec, c.field);
  switch (c.op) {
    case 'IN':
      return (c.value as Literal[]).some((v) => compare(a, v) === 0);
    case 'LIKE':
      return like(a, c.value as Literal);
    default: {
      const r = compare(a, c.value as Literal);
      if (r === undefined) return c.op === '!=';
      return { '=': r === 0, '!=': r !== 0, '<': r < 0, '>': r > 0, '<=': r <= 0, '>=': r >= 0 }[c.op];
    }
  }
}

/** Runs a parsed query over the records; returns Intuit's QueryResponse. */
export function runQuery(q: Query, all: Rec[]): Rec {
  const activeMentioned = q.where.some((w) => w.field.toLowerCase() === 'active');
  const nameList = q.entity === 'Customer' || q.entity === 'Item';
  let rows = all.filter(
    (r) => (!nameList || activeMentioned || r.Active !== false) && q.where.every((c) => matches(r, c)),
  );
  if (q.count) return { totalCount: rows.length };
  const order = q.orderBy.length > 0 ? q.orderBy : [{ field: 'Id', desc: false }];
  rows = [...rows].sort((x, y) => {
    for (const o of order) {
      const a = valueAt(x, o.field);
      const b = valueAt(y, o.field);
      if (a === b) continue;
      if (a === undefined || a === null) return 1;
      if (b === undefined || b === null) return -1;
      const r = compare(a, b as Literal) ?? 0;
      if (r !== 0) return o.desc ? -r : r;
    }
    return 0;
  });
  const page = rows.slice(q.startPosition - 1, q.startPosition - 1 + q.maxResults);
  if (page.length === 0) return {};
  return { [q.entity]: page, startPosition: q.startPosition, maxResults: page.length };
}
