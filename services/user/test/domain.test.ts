import { hashPassword, passwordProblem, verifyPassword } from '../src/domain/password';
import { hashJti, newReset, resetIsUsable } from '../src/domain/password-reset';
import { displayName, isStaff } from '../src/domain/user';

describe('passwords', () => {
  it('hashes with a salt and verifies only the right password, trimmed', async () => {
    const a = await hashPassword('secret');
    const b = await hashPassword('secret');
    expect(a).not.toEqual(b);
    expect(a).toMatch(/^scrypt\$/);
    expect(await verifyPassword('secret', a)).toBe(true);
    expect(await verifyPassword('  secret ', a)).toBe(true);
    expect(await verifyPassword('Secret', a)).toBe(false);
    expect(await verifyPassword('secret', undefined)).toBe(false);
  });

  it('refuses passwords shorter than 3 characters with the spec text', () => {
    expect(passwordProblem('ab')).toBe('Password must be at least 3 characters');
    expect(passwordProblem('  ab  ')).toBe('Password must be at least 3 characters');
    expect(passwordProblem('abc')).toBeUndefined();
  });
});

describe('password reset', () => {
  const now = new Date('2026-11-22T10:00:00Z');

  it('is usable once within the hour, for the token it was made for', () => {
    const { jti, pending } = newReset(now);
    expect(pending.jtiHash).toBe(hashJti(jti));
    expect(resetIsUsable(pending, jti, new Date(now.getTime() + 59 * 60_000))).toBe(true);
    expect(resetIsUsable(pending, jti, new Date(now.getTime() + 61 * 60_000))).toBe(false);
    expect(resetIsUsable(pending, 'another', now)).toBe(false);
    expect(resetIsUsable(null, jti, now)).toBe(false);
  });
});

describe('users', () => {
  it('treats any permission containing admin as staff', () => {
    expect(isStaff('admin')).toBe(true);
    expect(isStaff('superadmin')).toBe(true);
    expect(isStaff('customer')).toBe(false);
  });

  it('joins first and last name with a space', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(displayName({ firstName: 'Ada', lastName: null })).toBe('Ada');
  });
});
