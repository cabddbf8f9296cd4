import { CONNECTION_ERROR, guardDecision, hasRole, isStaff } from '../src/roles';
import { demoUser } from './support/api-server';

const session = (over: Partial<Parameters<typeof guardDecision>[0]>) => ({
  token: 'jwt',
  user: demoUser,
  loading: false,
  error: false,
  ...over,
});

describe('roles and route guards (spec §2, §6)', () => {
  it('staff is any permission containing admin', () => {
    expect(isStaff('admin')).toBe(true);
    expect(isStaff('superadmin')).toBe(true);
    expect(isStaff('customer')).toBe(false);
    expect(hasRole('superadmin', ['staff'])).toBe(true);
    expect(hasRole('admin', ['staff'])).toBe(true);
    expect(hasRole('admin', ['superadmin'])).toBe(false);
    expect(hasRole('customer', ['customer'])).toBe(true);
    expect(hasRole('customer', ['staff'])).toBe(false);
    expect(hasRole('company', ['customer', 'staff', 'superadmin'])).toBe(false);
  });

  it('no token: back to /', () => {
    expect(guardDecision(session({ token: null, user: null }), ['customer'])).toBe('redirect');
  });

  it('permissions loading: a loader', () => {
    expect(guardDecision(session({ loading: true, user: null }), ['customer'])).toBe('loading');
    // token stored, validation not started yet
    expect(guardDecision(session({ user: null }), ['customer'])).toBe('loading');
  });

  it('the user load failed (token kept): the connection message', () => {
    expect(guardDecision(session({ user: null, error: true }), ['customer'])).toBe('error');
    expect(CONNECTION_ERROR).toBe(
      'An error occurred while connecting to the server. Try refreshing the page',
    );
  });

  it('a role not in the list: back to /; one in the list: the screen', () => {
    expect(guardDecision(session({}), ['staff'])).toBe('redirect');
    expect(guardDecision(session({}), ['customer'])).toBe('allow');
    const admin = { ...demoUser, permissions: 'superadmin' };
    expect(guardDecision(session({ user: admin }), ['staff'])).toBe('allow');
    expect(guardDecision(session({ user: admin }), ['customer'])).toBe('redirect');
  });
});
