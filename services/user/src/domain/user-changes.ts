import { mayManage, present, trimmed } from './admin-rules';
import { type Refused, refuse, requiredMessage } from './refusals';
import { normaliseEmail } from './user';

/** PUT /user/{id} fields other than the password: Suspend / Enable (active) and the profile. */
export type UserChanges = {
  active?: boolean;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  phone?: string | null;
  email?: string;
  ownCompany?: string;
  CompanyId?: string;
};

/** Who acts: the session's user. */
export interface Actor {
  id: string;
  permissions: string;
}

/** The account acted on, as read. */
export interface Target {
  id: string;
  permissions: string;
  active: boolean;
}

/** PUT /user/{id} is either one's own password, alone, or staff's change of other fields. */
export function userPutKind(password: string | undefined, changes: object): 'password' | 'change' | Refused {
  const changing = Object.keys(changes).length > 0;
  if (password === undefined) return changing ? 'change' : refuse('nothingToChange');
  return changing ? refuse('passwordAlone') : 'password';
}

/**
 * Staff's change of a user checked against the user as read: the changes to write (trimmed, the
 * e-mail normalised, an empty phone cleared: a customer's stays required), or the refusal. A new
 * parent company is looked up after this.
 */
export function checkUserChange(actor: Actor, target: Target, body: UserChanges): UserChanges | Refused {
  const changes = trimmed(body);
  if (!mayManage(actor.permissions, target.permissions)) return refuse('onlySuperadmin');
  if (changes.active === false && actor.id === target.id) return refuse('notYourself');
  for (const field of ['firstName', 'lastName', 'email'] as const) {
    if (changes[field] !== undefined && !present(changes[field]))
      return refuse('invalid', requiredMessage(field));
  }
  if (changes.email !== undefined) changes.email = normaliseEmail(changes.email);
  if (changes.phone === '') changes.phone = null;
  if (changes.phone === null && target.permissions === 'customer')
    return refuse('invalid', requiredMessage('phone'));
  const companyFields = changes.CompanyId !== undefined || changes.ownCompany !== undefined;
  if (companyFields && target.permissions !== 'customer') return refuse('customerFieldsOnly');
  return changes;
}

/** The fields `changes` really change on `current`: the same values again write nothing. */
export function changedFields(
  current: Partial<Record<keyof UserChanges, unknown>>,
  changes: UserChanges,
): (keyof UserChanges)[] {
  return (Object.keys(changes) as (keyof UserChanges)[]).filter(
    (k) => (current[k] ?? null) !== (changes[k] ?? null),
  );
}

/**
 * What a staff change takes away. A new e-mail address, a suspension or an Enable spends every reset
 * or welcome link e-mailed before (it went to the old address, or predates the decision); a new
 * address or a suspension also ends every session. An Enable finds none to end: the suspension ended
 * them all and a suspended account gets none (its old tokens keep the suspension's answer).
 */
export function accessRevoked(
  changed: (keyof UserChanges)[],
  next: { active: boolean },
): { links: boolean; sessions: boolean } {
  const email = changed.includes('email');
  const active = changed.includes('active');
  return { links: email || active, sessions: email || (active && !next.active) };
}

/** Deleting an account: admins only by a superadmin, never oneself. */
export function deleteUserRefusal(actor: Actor, target: Target): Refused | undefined {
  if (!mayManage(actor.permissions, target.permissions)) return refuse('onlySuperadmin');
  if (actor.id === target.id) return refuse('notYourselfDelete');
  return undefined;
}

/**
 * Sending the welcome e-mail again: its link sets the account's password, so the same rule as every
 * other action on an admin; and a suspended account's link would not work.
 */
export function welcomeRefusal(actor: Actor, target: Target): Refused | undefined {
  if (!mayManage(actor.permissions, target.permissions)) return refuse('onlySuperadmin');
  if (!target.active) return refuse('suspendedNoWelcome');
  return undefined;
}
