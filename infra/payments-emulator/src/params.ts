/** Reading Stripe's form parameters: unknown names refused, integers, booleans, metadata. */
import { stripeErrors } from './errors';
import type { Params } from './form';

/** Refuses any parameter not in `allowed` (Stripe: parameter_unknown). */
export function onlyKnown(p: Params, allowed: readonly string[]): void {
  for (const key of Object.keys(p)) if (!allowed.includes(key)) throw stripeErrors.unknownParam(key);
}

export function integer(p: Params, name: string): number | undefined {
  const raw = p[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) throw stripeErrors.invalidInteger(name);
  return Number(raw);
}

export function bool(p: Params, name: string): boolean | undefined {
  const raw = p[name];
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw stripeErrors.invalid(name, `Invalid boolean: ${String(raw)}`);
}

export function text(p: Params, name: string): string | undefined {
  const raw = p[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw stripeErrors.invalid(name, `Invalid string: ${name}`);
  return raw;
}

/** Stripe's metadata rules: string values, 50 keys, keys ≤ 40 and values ≤ 500 characters; '' unsets. */
export function metadata(p: Params, into: Record<string, string> = {}): Record<string, string> {
  const raw = p.metadata;
  if (raw === undefined) return into;
  const out = { ...into };
  if (raw === '') return {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw stripeErrors.invalid('metadata', 'Invalid metadata: metadata must be a hash of strings.');
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string') throw stripeErrors.invalid(`metadata[${key}]`, 'Invalid string');
    if (key.length > 40)
      throw stripeErrors.invalid('metadata', 'Metadata keys can have up to 40 characters.');
    if (value.length > 500)
      throw stripeErrors.invalid(`metadata[${key}]`, 'Metadata values can have up to 500 characters.');
    if (value === '') delete out[key];
    else out[key] = value;
  }
  if (Object.keys(out).length > 50)
    throw stripeErrors.invalid('metadata', 'You can have up to 50 metadata keys.');
  return out;
}

/** `expand[]` as a list of paths. */
export function expandList(p: Params): string[] {
  const raw = p.expand;
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((x): x is string => typeof x === 'string');
}
