import { passwordProblem } from './password';
import { type Refused, refuse } from './refusals';

/**
 * Who signs in: the account, or spec §8's one answer for an unknown e-mail and a wrong password (the
 * one counted against the account's limit), then a suspended account's.
 */
export function signIn<Account extends { active: boolean }>(
  account: Account | null,
  passwordOk: boolean,
): Account | Refused {
  if (!account || !passwordOk) return refuse('incorrectLogin');
  if (!account.active) return refuse('accountSuspended');
  return account;
}

/** A new password that the spec's forms would refuse. */
export function newPasswordRefusal(password: string): Refused | undefined {
  const problem = passwordProblem(password);
  return problem ? refuse('invalid', problem) : undefined;
}

/** Changing one's own password with a session: a valid new one, and the current one to check. */
export function ownPasswordChangeRefusal(
  password: string,
  currentPassword: string | undefined,
): Refused | undefined {
  return newPasswordRefusal(password) ?? (currentPassword ? undefined : refuse('currentPasswordRequired'));
}
