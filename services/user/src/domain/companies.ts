import type { CompanyChanges, NewCompany } from '@decor/contracts';
import { companyProblem, present, trimmed } from './admin-rules';
import { type Refused, refuse } from './refusals';

/** The fields a staff list row may keep (`attributes=`), in the view's order. */
export const COMPANY_ATTRIBUTES = [
  'id',
  'name',
  'displayName',
  'street',
  'city',
  'state',
  'zipCode',
  'phone',
  'qboId',
] as const;
export type CompanyAttribute = (typeof COMPANY_ATTRIBUTES)[number];

/** `attributes=id,name` or repeated: the fields each row keeps, or the refusal of an unknown name. */
export function attributesOf(raw: unknown): CompanyAttribute[] | undefined | Refused {
  if (raw === undefined) return undefined;
  const names = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).map((v) => v.trim());
  const wanted = names.filter(Boolean);
  const unknown = wanted.find((n) => !(COMPANY_ATTRIBUTES as readonly string[]).includes(n));
  if (unknown !== undefined)
    return refuse(
      'invalid',
      `attributes must name some of: ${COMPANY_ATTRIBUTES.join(', ')} (not '${unknown}')`,
    );
  return wanted as CompanyAttribute[];
}

/** A new company's form: the first missing field. */
export function newCompanyRefusal(input: NewCompany): Refused | undefined {
  const problem = companyProblem(input);
  return problem ? refuse('invalid', problem) : undefined;
}

/** A change of a company: something to change, and no required field blanked. */
export function companyChangeRefusal(input: CompanyChanges): Refused | undefined {
  if (Object.keys(input).length === 0) return refuse('nothingToChange');
  const problem = companyProblem(input, { partial: true });
  return problem ? refuse('invalid', problem) : undefined;
}

/** A company's editable fields, trimmed; an empty phone clears it; the display name always equals the name (spec §3). */
export function companyFields(input: CompanyChanges): Record<string, string | null> {
  const body = trimmed(input);
  const set: Record<string, string | null> = {};
  for (const key of ['street', 'city', 'state', 'zipCode'] as const)
    if (body[key] !== undefined) set[key] = body[key];
  if (body.phone !== undefined) set.phone = present(body.phone) ? body.phone : null;
  if (body.name !== undefined) {
    set.name = body.name;
    set.displayName = body.name;
  }
  return set;
}

/** A new company's fields; `qboId` when it was imported from QuickBooks. */
export function newCompanyFields(input: NewCompany): Record<string, string | null> {
  const qboId = input.qboId?.trim();
  return { ...companyFields(input), ...(present(qboId) ? { qboId } : {}) };
}

/** Whether `set` changes anything of `current`: the same values again write nothing. */
export function companyChanges(current: Record<string, unknown>, set: Record<string, unknown>): boolean {
  return Object.keys(set).some((k) => (current[k] ?? null) !== (set[k] ?? null));
}

/** A company is deleted only without customers (a customer must always have its company). */
export function companyDeletionRefusal(customers: number): Refused | undefined {
  return customers > 0 ? refuse('companyHasCustomers') : undefined;
}

/** Each row of a list keeps only the `wanted` attributes (all without `attributes=`). */
export function keepAttributes<Row extends Record<CompanyAttribute, unknown>>(
  rows: Row[],
  wanted: CompanyAttribute[] | undefined,
): Partial<Row>[] {
  if (!wanted || wanted.length === 0) return rows;
  return rows.map((row) => Object.fromEntries(wanted.map((k) => [k, row[k]])) as Partial<Row>);
}
