/** Spec §6 roles and the viewer classes the catalogue and the gateway's cache both key by. */
import { ACCESS_ROLES, hasAccess, isStaff, viewerClass } from '../src/roles';

it('staff are those whose permission contains admin (a superadmin too)', () => {
  expect(['customer', 'admin', 'superadmin'].map(isStaff)).toEqual([false, true, true]);
});

it('viewer classes: anonymous, signed in (customer), staff (admin and superadmin)', () => {
  expect(viewerClass(null)).toBe('anonymous');
  expect(viewerClass({ permissions: 'customer' })).toBe('signedIn');
  expect(viewerClass({ permissions: 'admin' })).toBe('staff');
  expect(viewerClass({ permissions: 'superadmin' })).toBe('staff');
});

it('access roles: what each permission string (or none, or an unknown one) is admitted to', () => {
  const admitted = (p: string | null) => ACCESS_ROLES.filter((role) => hasAccess(p, role));
  expect(admitted('customer')).toEqual(['customer']);
  expect(admitted('admin')).toEqual(['staff']);
  expect(admitted('superadmin')).toEqual(['staff', 'superadmin']);
  expect(admitted('company')).toEqual([]);
  expect(admitted(null)).toEqual([]);
});
