/**
 * Turns Ajv's errors into one sentence a person can read ("email must be a string",
 * "Unknown field '$where'"), naming fields the way the client sent them and never leaking
 * Ajv's internal paths ("body/email").
 */

/** The part of an Ajv error we read; `parentSchema` and `data` are there because Ajv runs with `verbose`. */
export interface AjvIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: unknown;
  data?: unknown;
}

/**
 * Schema annotation: a schema may word its own message. Either a predicate appended to the field name
 * (`'x-message': 'must be …'` → "order must be …"), a sentence with `{field}` (`'Invalid {field}'`),
 * or a whole sentence starting with a capital, used as it is (the spec's 'Please provide a valid email address').
 */
export const MESSAGE_KEYWORD = 'x-message';

const CONTEXT_LABELS: Record<string, string> = {
  body: 'Body',
  querystring: 'Query',
  params: 'Path',
  headers: 'Headers',
};

const TYPE_NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

const FORMAT_NOUNS: Record<string, string> = {
  date: 'a date',
  'date-time': 'a date and time',
  time: 'a time',
  email: 'a valid email address',
  uri: 'a URL',
  url: 'a URL',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

/** '/items/0/qty' → 'items[0].qty' */
function fieldName(instancePath: string): string {
  let name = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    name += /^\d+$/.test(part) ? `[${part}]` : name ? `.${part}` : part;
  }
  return name;
}

function join(parent: string, child: unknown): string {
  return parent ? `${parent}.${String(child)}` : String(child);
}

function typeNoun(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((t) => TYPE_NOUNS[String(t)] ?? String(t)).join(' or ');
}

function customMessage(schema: unknown, label: string): string | undefined {
  if (!schema || typeof schema !== 'object' || !(MESSAGE_KEYWORD in schema)) return undefined;
  const text = String((schema as Record<string, unknown>)[MESSAGE_KEYWORD]);
  if (text.includes('{field}')) return text.replaceAll('{field}', label);
  return /^[A-Z]/.test(text) ? text : `${label} ${text}`;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describe(issue: AjvIssue, context: string): string {
  const field = fieldName(issue.instancePath);
  const label = field || CONTEXT_LABELS[context] || 'Request';
  const p = issue.params;
  const custom = customMessage(issue.parentSchema, label);
  if (custom && issue.keyword !== 'required' && issue.keyword !== 'additionalProperties') return custom;
  switch (issue.keyword) {
    case 'required':
      return `${join(field, p.missingProperty)} is required`;
    case 'additionalProperties': {
      const name = join(field, p.additionalProperty);
      return context === 'querystring' ? `Unknown query parameter '${name}'` : `Unknown field '${name}'`;
    }
    case 'type':
      if (!field && context === 'body' && (issue.data === undefined || issue.data === null)) {
        return 'Body is required';
      }
      return `${label} must be ${typeNoun(p.type)}`;
    case 'format':
      return `${label} must be ${FORMAT_NOUNS[String(p.format)] ?? `a valid ${String(p.format)}`}`;
    case 'minLength':
      return p.limit === 1 ? `${label} must not be empty` : `${label} must be at least ${p.limit} characters`;
    case 'maxLength':
      return `${label} must be at most ${p.limit} characters`;
    case 'minimum':
      return `${label} must be at least ${p.limit}`;
    case 'maximum':
      return `${label} must be at most ${p.limit}`;
    case 'exclusiveMinimum':
      return `${label} must be greater than ${p.limit}`;
    case 'exclusiveMaximum':
      return `${label} must be less than ${p.limit}`;
    case 'multipleOf':
      return `${label} must be a multiple of ${p.multipleOf}`;
    case 'enum':
      return `${label} must be one of: ${(p.allowedValues as unknown[]).map(quote).join(', ')}`;
    case 'const':
      return `${label} must be ${quote(p.allowedValue)}`;
    case 'minItems':
      return `${label} must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${label} must have at most ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return `${label} must not contain duplicates`;
    case 'pattern':
      return `${label} has an invalid format`;
    default:
      return `${label} ${issue.message ?? 'is invalid'}`;
  }
}

/**
 * A union (`anyOf`) fails with one error per branch, then the union's own. When the branches were
 * literals or plain types, say which values/types would do; otherwise describe the union as invalid.
 */
function describeUnion(union: AjvIssue, branches: AjvIssue[], context: string): string {
  const label = fieldName(union.instancePath) || CONTEXT_LABELS[context] || 'Request';
  const custom = customMessage(union.parentSchema, label);
  if (custom) return custom;
  const same = branches.filter((b) => b.instancePath === union.instancePath);
  if (same.length > 0 && same.length === branches.length) {
    if (same.every((b) => b.keyword === 'const')) {
      return `${label} must be one of: ${same.map((b) => quote(b.params.allowedValue)).join(', ')}`;
    }
    if (same.every((b) => b.keyword === 'type')) {
      return `${label} must be ${same.map((b) => typeNoun(b.params.type)).join(' or ')}`;
    }
  }
  const deeper = branches.find((b) => b.instancePath.length > union.instancePath.length);
  return deeper ? describe(deeper, context) : `${label} is not valid`;
}

export function validationMessage(issues: readonly AjvIssue[], context: string): string {
  const unionAt = issues.findIndex((i) => i.keyword === 'anyOf' || i.keyword === 'oneOf');
  if (unionAt >= 0) {
    const union = issues[unionAt] as AjvIssue;
    const branches = issues.slice(0, unionAt).filter((b) => b.instancePath.startsWith(union.instancePath));
    return describeUnion(union, branches, context);
  }
  const first = issues[0];
  return first ? describe(first, context) : 'The request is not valid';
}
