/** The pure rules of the users and companies forms (spec §5, §6; src/domain/admin-rules.ts). */
import { companyProblem, mayManage, newUserProblem, sendsWelcome } from '../src/domain/admin-rules';

describe('who manages whom', () => {
  it.each([
    ['admin', 'customer', true],
    ['superadmin', 'customer', true],
    ['admin', 'admin', false],
    ['admin', 'superadmin', false],
    ['superadmin', 'admin', true],
    ['superadmin', 'superadmin', true],
    ['customer', 'customer', false],
  ])('%s may manage a %s: %s', (actor, target, allowed) => {
    expect(mayManage(actor, target)).toBe(allowed);
  });
});

describe('new user form', () => {
  const customer = {
    permissions: 'customer' as const,
    email: 'a@b.example',
    CompanyId: '0123456789abcdef01234567',
    ownCompany: 'Own',
    displayName: 'Ava T',
    firstName: 'Ava',
    lastName: 'T',
    phone: '1',
  };
  it('accepts a complete customer and an admin without phone', () => {
    expect(newUserProblem(customer)).toBeUndefined();
    expect(
      newUserProblem({ permissions: 'admin', email: 'a@b.example', firstName: 'A', lastName: 'B' }),
    ).toBeUndefined();
  });
  it('asks for the parent company first, then each required field', () => {
    expect(newUserProblem({ ...customer, CompanyId: ' ' })).toBe('Please select a parent company');
    expect(newUserProblem({ ...customer, phone: '' })).toBe('phone is required');
    expect(newUserProblem({ permissions: 'admin', email: 'a@b.example', firstName: 'A' })).toBe(
      'lastName is required',
    );
  });
  it('needs less for an import: company name, display name and phone may be missing', () => {
    const imported = {
      ...customer,
      qboId: '7',
      ownCompany: undefined,
      displayName: undefined,
      phone: undefined,
    };
    expect(newUserProblem(imported)).toBeUndefined();
  });
  it('refuses company fields on an admin', () => {
    expect(
      newUserProblem({
        permissions: 'admin',
        email: 'a@b.example',
        firstName: 'A',
        lastName: 'B',
        CompanyId: 'x',
      }),
    ).toBe('Only a customer has a company');
  });
  it('sends the welcome e-mail unless refused; to imports only when asked', () => {
    expect(sendsWelcome({})).toBe(true);
    expect(sendsWelcome({ sendWelcomeEmail: false })).toBe(false);
    expect(sendsWelcome({ qboId: '7' })).toBe(false);
    expect(sendsWelcome({ qboId: '7', sendWelcomeEmail: true })).toBe(true);
  });
});

it('company form: name, street, city, state, zip code required; phone optional; partial edits', () => {
  const full = { name: 'N', street: 's', city: 'c', state: 'st', zipCode: 'z' };
  expect(companyProblem(full)).toBeUndefined();
  expect(companyProblem({ ...full, zipCode: ' ' })).toBe('zipCode is required');
  expect(companyProblem({ city: 'x' }, { partial: true })).toBeUndefined();
  expect(companyProblem({ city: '' }, { partial: true })).toBe('city is required');
});
