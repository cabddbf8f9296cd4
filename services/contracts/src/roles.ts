/**
 * Spec §6 roles, the one copy: a user's permission string is 'customer', 'admin' or 'superadmin';
 * staff are those whose permission string contains 'admin' (the spec's "contains" test), so a
 * superadmin is staff too. The kit, the services and the frontends all ask these functions.
 */
export const PERMISSIONS = ['customer', 'admin', 'superadmin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

type MaybePermission = string | null | undefined;

export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
export const isStaff = (permissions: MaybePermission): boolean =>
  !!permissions && permissions.includes('admin');
export const isSuperadmin = (permissions: MaybePermission): boolean => permissions === 'superadmin';
export const isCustomer = (permissions: MaybePermission): boolean => permissions === 'customer';

/**
 * Who is asking, as far as a public read's answer differs: an anonymous visitor, a signed-in
 * customer, or staff (admin/superadmin). The catalogue shapes its answers by it, and the gateway
 * keys its cached catalogue answers by it, so both must classify alike: this is the one rule.
 */
export type ViewerClass = 'anonymous' | 'signedIn' | 'staff';

export function viewerClass(user: { permissions: MaybePermission } | null): ViewerClass {
  if (!user) return 'anonymous';
  return isStaff(user.permissions) ? 'staff' : 'signedIn';
}

/**
 * Who a route admits, the one vocabulary of servers (the kit's `requireRole`) and frontends (the
 * route guards): customers, staff (admin and superadmin) or superadmins only. Permission strings
 * are what a user holds; access roles are what a route asks.
 */
export const ACCESS_ROLES = ['customer', 'staff', 'superadmin'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

export function hasAccess(permissions: MaybePermission, role: AccessRole): boolean {
  if (role === 'customer') return isCustomer(permissions);
  if (role === 'staff') return isStaff(permissions);
  return isSuperadmin(permissions);
}
