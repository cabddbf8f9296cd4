/** Route guards by the roles of spec §6 (the rule itself is @decor/contracts' roles). */
import { isCustomer, isStaff, isSuperadmin, type Permission } from '@decor/contracts/rules';
import type { SessionState } from './session-slice';

export { isCustomer, isStaff, isSuperadmin };
export type Role = Permission;

/** Whether a permission string is one of the allowed roles ('admin' admits superadmin too). */
export function hasRole(permissions: string | undefined | null, allowed: readonly Role[]): boolean {
  if (!permissions) return false;
  return allowed.some((role) => {
    if (role === 'customer') return isCustomer(permissions);
    if (role === 'admin') return isStaff(permissions);
    return isSuperadmin(permissions);
  });
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
