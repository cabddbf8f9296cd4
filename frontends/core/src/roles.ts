/** Route guards by the roles of spec §6 (the rule itself is @decor/contracts' roles). */
import { type AccessRole, hasAccess, isCustomer, isStaff, isSuperadmin } from '@decor/contracts/rules';
import type { SessionState } from './session-slice';

export { isCustomer, isStaff, isSuperadmin };
/** What a route admits: contracts' access roles ('staff' is admin and superadmin), as on the servers. */
export type Role = AccessRole;

export function hasRole(permissions: string | undefined | null, allowed: readonly Role[]): boolean {
  return allowed.some((role) => hasAccess(permissions, role));
}

export const CONNECTION_ERROR = 'An error occurred while connecting to the server. Try refreshing the page';

export type GuardDecision = 'redirect' | 'loading' | 'error' | 'allow';

/**
 * Spec §2 protected routes: no token → back to /; permissions still loading → loader; loading the
 * user failed → the connection message; a role not in the list → back to /.
 */
export function guardDecision(
  session: Pick<SessionState, 'token' | 'user' | 'loading' | 'error'>,
  allowed: readonly Role[],
): GuardDecision {
  if (!session.token) return 'redirect';
  if (session.loading) return 'loading';
  if (!session.user) return session.error ? 'error' : 'loading';
  return hasRole(session.user.permissions, allowed) ? 'allow' : 'redirect';
}
