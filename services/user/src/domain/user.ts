/** Spec §3: permissions of a user record. */
export const PERMISSIONS = ['customer', 'admin', 'superadmin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Spec §6: admin checks test whether the permission string contains 'admin'. */
export function isStaff(permissions: string): boolean {
  return permissions.includes('admin');
}

/** Spec §3: the display name joins first and last name with a space. */
export function displayName(user: { firstName?: string | null; lastName?: string | null }): string {
  return [user.firstName, user.lastName].filter((p) => p?.trim()).join(' ');
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
