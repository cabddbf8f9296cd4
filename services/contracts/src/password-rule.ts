/**
 * Spec §5 and §9: a password is at least 3 characters (after trimming). One rule for the user
 * service and the profile and reset forms. No TypeBox here: the frontends import this file directly.
 */
export const PASSWORD_MIN_LENGTH = 3;
export const PASSWORD_TOO_SHORT = 'Password must be at least 3 characters';

export function passwordProblem(password: string): string | undefined {
  return password.trim().length < PASSWORD_MIN_LENGTH ? PASSWORD_TOO_SHORT : undefined;
}
