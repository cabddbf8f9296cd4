/**
 * What the forms accept as an e-mail address: one address, no display name or list (so a value can
 * never smuggle a second recipient into a header), with a dot in the domain. One rule for the
 * notification service and the contact form. No TypeBox here: the frontends import this file.
 */
export const EMAIL_PATTERN =
  '^[^\\s@,;:<>()\\[\\]"\\\\]+@[^\\s@,;:<>()\\[\\]"\\\\]+\\.[^\\s@,;:<>()\\[\\]"\\\\]+$';
export const EMAIL_MAX_LENGTH = 254;

/** Spec §5 / back office: the text shown for an e-mail field that is missing or malformed. */
export const INVALID_EMAIL = 'Please provide a valid email address';

const EMAIL = new RegExp(EMAIL_PATTERN);

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value);
}
