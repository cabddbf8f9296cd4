import { isStaff, isSuperadmin } from '@decor/contracts';

/** Spec §8 / §5 texts and the server's own refusals of the users and companies calls. */
export const MESSAGES = {
  userNotFound: 'User not found',
  companyNotFound: 'Company not found',
  selectParentCompany: 'Please select a parent company',
  invalidEmail: 'Please provide a valid email address',
  emailTaken: 'A user with this email already exists',
  companyNameTaken: 'A company with this name already exists',
  onlySuperadmin: 'Only a superadmin can manage admins',
  notYourself: 'You cannot suspend your own account',
  notYourselfDelete: 'You cannot delete your own account',
  companyHasCustomers: 'This company still has customers. Move or delete them first.',
  passwordAlone: 'The password is changed on its own, without other fields',
  nothingToChange: 'Nothing to change',
  customerFieldsOnly: 'Only a customer has a company',
  userDeleted: 'User deleted',
  companyDeleted: 'Company deleted',
  welcomeSent: 'The welcome email has been sent',
  suspendedNoWelcome: 'This account is suspended. Enable it before sending the welcome email.',
  changedMeanwhile: 'This record was changed by someone else meanwhile, please try again',
} as const;

export const requiredMessage = (field: string) => `${field} is required`;

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
