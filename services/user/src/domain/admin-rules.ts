import { isStaff, isSuperadmin } from '@decor/contracts';
import { MESSAGES, type Refused, refuse, requiredMessage } from './refusals';
import { normaliseEmail } from './user';

/** Spec §5: trimmed text; blank is missing. */
export function present(value: string | undefined | null): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Spec §6 and the issue: staff manage customers; only a superadmin creates, changes, suspends or
 * deletes an admin or superadmin record.
 */
export function mayManage(actorPermissions: string, targetPermissions: string): boolean {
  if (!isStaff(actorPermissions)) return false;
  return isStaff(targetPermissions) ? isSuperadmin(actorPermissions) : true;
}

export interface NewUserInput {
  permissions: 'customer' | 'admin';
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string | null;
  displayName?: string;
  ownCompany?: string;
  CompanyId?: string;
  qboId?: string;
  sendWelcomeEmail?: boolean;
}

/**
 * Spec §5 customer and admin forms, server side: the first problem as a message, or undefined.
 * An import from QuickBooks (qboId set) needs less: the company name defaults to the parent
 * company's, the display name to first and last name, the phone is optional.
 */
export function newUserProblem(input: NewUserInput): string | undefined {
  if (input.permissions === 'customer' && !present(input.CompanyId)) return MESSAGES.selectParentCompany;
  const imported = present(input.qboId);
  const required: (keyof NewUserInput)[] =
    input.permissions === 'customer'
      ? imported
        ? ['firstName', 'lastName']
        : ['ownCompany', 'displayName', 'firstName', 'lastName', 'phone']
      : ['firstName', 'lastName'];
  for (const field of required) {
    if (!present(input[field] as string | undefined)) return requiredMessage(field);
  }
  if (input.permissions === 'admin' && (input.CompanyId || input.ownCompany))
    return MESSAGES.customerFieldsOnly;
  return undefined;
}

/** Staff creating an account: who may, then the form (the parent company is looked up next). */
export function newUserRefusal(actorPermissions: string, input: NewUserInput): Refused | undefined {
  if (!mayManage(actorPermissions, input.permissions)) return refuse('onlySuperadmin');
  const problem = newUserProblem(input);
  return problem ? refuse('invalid', problem) : undefined;
}

/** The new account's fields from the accepted form; a customer's company name defaults to its parent's. */
export function newUserFields(input: NewUserInput, company: { id: string; name: string } | null) {
  return {
    permissions: input.permissions,
    email: normaliseEmail(input.email),
    firstName: input.firstName ?? '',
    lastName: input.lastName ?? '',
    ...(present(input.displayName) ? { displayName: input.displayName } : {}),
    ...(present(input.phone) ? { phone: input.phone } : {}),
    ...(present(input.qboId) ? { qboId: input.qboId } : {}),
    ...(company
      ? { CompanyId: company.id, ownCompany: present(input.ownCompany) ? input.ownCompany : company.name }
      : {}),
  };
}

/** Whether the new account gets the welcome e-mail: yes unless refused; imports only when asked. */
export function sendsWelcome(input: Pick<NewUserInput, 'qboId' | 'sendWelcomeEmail'>): boolean {
  if (input.sendWelcomeEmail !== undefined) return input.sendWelcomeEmail;
  return !present(input.qboId);
}

export const COMPANY_REQUIRED = ['name', 'street', 'city', 'state', 'zipCode'] as const;

export function companyProblem(
  input: Partial<Record<(typeof COMPANY_REQUIRED)[number], string>> & { phone?: string | null },
  { partial = false } = {},
): string | undefined {
  for (const field of COMPANY_REQUIRED) {
    const value = input[field];
    if (partial && value === undefined) continue;
    if (!present(value)) return requiredMessage(field === 'name' ? 'name' : field);
  }
  return undefined;
}

/** Trims every string field of a body (the forms send what was typed). */
export function trimmed<T extends Record<string, unknown>>(body: T): T {
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]),
  ) as T;
}
