import { INVALID_EMAIL, isEmailAddress } from './email-address';

/**
 * The contact form (spec §7 `POST /send/info`): its fields, limits and texts, one copy for the
 * notification service, which checks and sends it, and the shell's form, which checks it first.
 * No TypeBox here: the frontends import this file.
 */
export const CONTACT_FIELDS = ['name', 'email', 'phone', 'eventDate', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const CONTACT_LABELS: Record<ContactField, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  eventDate: 'Event Date',
  message: 'Message',
};

export const CONTACT_REQUIRED: readonly ContactField[] = ['name', 'email', 'message'];

export const CONTACT_MAX_LENGTH: Record<ContactField, number> = {
  name: 100,
  email: 254,
  phone: 40,
  eventDate: 10,
  message: 5000,
};

/**
 * The hidden field people never see nor fill: a post that fills it is a bot's, answered as a
 * success and sent nowhere.
 */
export const CONTACT_HONEYPOT = 'website';

export const CONTACT_TEXTS = {
  title: 'Contact us',
  /** Spec §5: a required field without a message of its own. */
  required: 'This field is required',
  invalidEmail: INVALID_EMAIL,
  invalidDate: 'Please provide a valid date',
  tooLong: (max: number) => `Please use at most ${max} characters`,
  sent: 'Thank you! Your message has been sent. We will get back to you soon.',
  failed: 'An error occurred while sending your message',
  /** 429: too many messages from one address or one sender within the window. */
  tooMany: 'You have sent too many messages. Please try again later.',
} as const;

export type ContactInput = Partial<Record<ContactField, string>>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (what the form's date picker sends). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** What is wrong with one field's value (trimmed), or undefined. */
export function contactFieldProblem(field: ContactField, raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  // Spec §5: the e-mail's own text also when it is missing, as on the login form.
  if (field === 'email') return isEmailAddress(value) ? undefined : CONTACT_TEXTS.invalidEmail;
  if (value === '') return CONTACT_REQUIRED.includes(field) ? CONTACT_TEXTS.required : undefined;
  if (field === 'eventDate') return isCalendarDate(value) ? undefined : CONTACT_TEXTS.invalidDate;
  const max = CONTACT_MAX_LENGTH[field];
  return value.length > max ? CONTACT_TEXTS.tooLong(max) : undefined;
}

/**
 * The server's answer to the first field in error, in form order: the field's label and its text
 * ('Name: This field is required'); the e-mail's text names its field already.
 */
export function contactRefusal(input: ContactInput): string | undefined {
  for (const field of CONTACT_FIELDS) {
    const problem = contactFieldProblem(field, input[field]);
    if (problem)
      return problem === CONTACT_TEXTS.invalidEmail ? problem : `${CONTACT_LABELS[field]}: ${problem}`;
  }
  return undefined;
}
