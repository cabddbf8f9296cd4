export { isStaff, PERMISSIONS, type Permission } from '@decor/contracts';

/** Spec §3: the display name joins first and last name with a space. */
export function displayName(user: { firstName?: string | null; lastName?: string | null }): string {
  return [user.firstName, user.lastName].filter((p) => p?.trim()).join(' ');
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
