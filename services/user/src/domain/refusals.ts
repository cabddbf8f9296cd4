/**
 * The user service's refusals: a code (what was refused, in product words) and the sentence the user
 * reads. The rules answer them; the routes map each code to its HTTP status in one table
 * (`routes/refusals.ts`), as the order service maps its lifecycle codes.
 */

/** Spec §8 / §5 texts and the server's own answers of the users and companies calls. */
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
  /** Spec §8: the same answer for an unknown e-mail and a wrong password. */
  incorrectLogin: 'Incorrect username or password',
  accountSuspended: 'Your account is suspended. Please contact us.',
  signedOut: 'Signed out',
  /** Spec §4: a reset request always reports success, whether or not the e-mail has an account. */
  resetRequested: 'If an account exists for this e-mail, a link to reset the password is on its way',
  resetLinkInvalid: 'This password reset link is invalid or has expired',
  passwordUpdated: 'Password updated',
  /** Changing one's password with a session needs the current one (a reset link needs none). */
  currentPasswordRequired: 'Please enter your current password',
  currentPasswordWrong: 'Your current password is incorrect',
} as const;

export const requiredMessage = (field: string) => `${field} is required`;

export type RefusalCode =
  /** A form's field or value that cannot be accepted (the sentence names it). */
  | 'invalid'
  | 'selectParentCompany'
  | 'nothingToChange'
  | 'passwordAlone'
  | 'customerFieldsOnly'
  | 'currentPasswordRequired'
  /** Who may do it. */
  | 'onlySuperadmin'
  | 'incorrectLogin'
  | 'accountSuspended'
  | 'currentPasswordWrong'
  | 'resetLinkInvalid'
  /** What is not there (or not shown to this viewer). */
  | 'userNotFound'
  | 'companyNotFound'
  /** The record's state forbids it now. */
  | 'notYourself'
  | 'notYourselfDelete'
  | 'emailTaken'
  | 'companyNameTaken'
  | 'companyHasCustomers'
  | 'suspendedNoWelcome'
  | 'changedMeanwhile';

export interface Refusal {
  code: RefusalCode;
  message: string;
}

/** What a rule or a write answers instead of its result when it refuses. */
export interface Refused {
  refused: Refusal;
}

/** The refusal `code` with its own sentence, or `message` for the codes whose sentence varies. */
export function refuse(code: Exclude<RefusalCode, 'invalid'>): Refused;
export function refuse(code: 'invalid', message: string): Refused;
export function refuse(code: RefusalCode, message?: string): Refused {
  return { refused: { code, message: message ?? MESSAGES[code as keyof typeof MESSAGES] } };
}

export function isRefused(outcome: unknown): outcome is Refused {
  return typeof outcome === 'object' && outcome !== null && 'refused' in outcome;
}
