/** The pure rules behind the users, companies and sign-in calls, and how their refusals read. */
import { newUserFields, newUserRefusal } from '../src/domain/admin-rules';
import {
  attributesOf,
  companyChangeRefusal,
  companyChanges,
  companyDeletionRefusal,
  companyFields,
  keepAttributes,
  newCompanyFields,
} from '../src/domain/companies';
import { isRefused, MESSAGES } from '../src/domain/refusals';
import { ownPasswordChangeRefusal, signIn } from '../src/domain/sign-in';
import {
  changedFields,
  checkUserChange,
  deleteUserRefusal,
  userPutKind,
  welcomeRefusal,
} from '../src/domain/user-changes';

const code = (outcome: unknown) => (isRefused(outcome) ? outcome.refused.code : undefined);
const admin = { id: 'a1', permissions: 'admin' };
const superadmin = { id: 's1', permissions: 'superadmin' };
const customer = { id: 'c1', permissions: 'customer', active: true };

describe('PUT /user/{id}: one password alone, or staff changes', () => {
  it('tells the two apart and refuses a mix or nothing', () => {
    expect(userPutKind('new-pass', {})).toBe('password');
    expect(userPutKind(undefined, { active: false })).toBe('change');
    expect(code(userPutKind(undefined, {}))).toBe('nothingToChange');
    expect(userPutKind('new-pass', { firstName: 'A' })).toEqual({
      refused: { code: 'passwordAlone', message: MESSAGES.passwordAlone },
    });
  });
});

describe("staff's change of a user", () => {
  it('trims, normalises the e-mail and clears an empty phone', () => {
    const adminTarget = { id: 'a2', permissions: 'admin', active: true };
    expect(checkUserChange(superadmin, adminTarget, { email: ' Ann@X.example ', phone: '' })).toEqual({
      email: 'ann@x.example',
      phone: null,
    });
  });
  it('refuses in the order the forms expect', () => {
    expect(code(checkUserChange(admin, { ...customer, permissions: 'admin' }, { firstName: 'B' }))).toBe(
      'onlySuperadmin',
    );
    expect(code(checkUserChange(admin, { ...admin, active: true }, { active: false }))).toBe(
      'onlySuperadmin',
    );
    expect(code(checkUserChange(superadmin, { ...superadmin, active: true }, { active: false }))).toBe(
      'notYourself',
    );
    expect(checkUserChange(admin, customer, { lastName: '  ' })).toEqual({
      refused: { code: 'invalid', message: 'lastName is required' },
    });
    expect(checkUserChange(admin, customer, { phone: ' ' })).toEqual({
      refused: { code: 'invalid', message: 'phone is required' },
    });
    const adminTarget = { id: 'a2', permissions: 'admin', active: true };
    expect(code(checkUserChange(superadmin, adminTarget, { ownCompany: 'X' }))).toBe('customerFieldsOnly');
  });
  it('names only the fields that really change (missing and null are the same)', () => {
    expect(changedFields({ firstName: 'A', phone: undefined }, { firstName: 'A', phone: null })).toEqual([]);
    expect(changedFields({ firstName: 'A', active: true }, { firstName: 'B', active: false })).toEqual([
      'firstName',
      'active',
    ]);
  });
  it('deletes and re-sends the welcome e-mail under the same rule on admins', () => {
    expect(code(deleteUserRefusal(admin, { id: 'a2', permissions: 'admin', active: true }))).toBe(
      'onlySuperadmin',
    );
    expect(code(deleteUserRefusal(admin, { ...admin, active: true }))).toBe('onlySuperadmin');
    expect(code(deleteUserRefusal(superadmin, { ...superadmin, active: true }))).toBe('notYourselfDelete');
    expect(deleteUserRefusal(admin, customer)).toBeUndefined();
    expect(code(welcomeRefusal(admin, { ...customer, active: false }))).toBe('suspendedNoWelcome');
    expect(code(welcomeRefusal(admin, { id: 'a2', permissions: 'superadmin', active: true }))).toBe(
      'onlySuperadmin',
    );
    expect(welcomeRefusal(admin, customer)).toBeUndefined();
  });
});

describe('a new account', () => {
  const form = {
    permissions: 'customer' as const,
    email: ' Ava@B.example',
    CompanyId: '0123456789abcdef01234567',
    firstName: 'Ava',
    lastName: 'T',
    qboId: '7',
  };
  it('refuses an admin made by an admin before looking at the form', () => {
    expect(code(newUserRefusal('admin', { permissions: 'admin', email: 'x@y.example' }))).toBe(
      'onlySuperadmin',
    );
    expect(newUserRefusal('superadmin', { permissions: 'admin', email: 'x@y.example' })).toEqual({
      refused: { code: 'invalid', message: 'firstName is required' },
    });
    expect(newUserRefusal('admin', form)).toBeUndefined();
  });
  it('takes its company name from the parent company unless given, and leaves out what is blank', () => {
    expect(newUserFields({ ...form, phone: ' ' }, { id: 'co1', name: 'Evergreen' })).toEqual({
      permissions: 'customer',
      email: 'ava@b.example',
      firstName: 'Ava',
      lastName: 'T',
      qboId: '7',
      CompanyId: 'co1',
      ownCompany: 'Evergreen',
    });
    expect(newUserFields({ ...form, ownCompany: 'Own' }, { id: 'co1', name: 'Evergreen' }).ownCompany).toBe(
      'Own',
    );
  });
});

describe('sign-in and password change', () => {
  it('answers an unknown e-mail and a wrong password alike, then a suspension', () => {
    const account = { active: true, id: 'u1' };
    expect(signIn(account, true)).toBe(account);
    expect(code(signIn(null, false))).toBe('incorrectLogin');
    expect(code(signIn(account, false))).toBe('incorrectLogin');
    expect(code(signIn({ active: false }, false))).toBe('incorrectLogin');
    expect(signIn({ active: false }, true)).toEqual({
      refused: { code: 'accountSuspended', message: 'Your account is suspended. Please contact us.' },
    });
  });
  it('needs a valid new password, then the current one', () => {
    expect(code(ownPasswordChangeRefusal('ab', undefined))).toBe('invalid');
    expect(code(ownPasswordChangeRefusal('abcdef', undefined))).toBe('currentPasswordRequired');
    expect(code(ownPasswordChangeRefusal('abcdef', ''))).toBe('currentPasswordRequired');
    expect(ownPasswordChangeRefusal('abcdef', 'old')).toBeUndefined();
  });
});

describe('companies', () => {
  it('reads attributes= as a comma list and refuses unknown names', () => {
    expect(attributesOf(undefined)).toBeUndefined();
    expect(attributesOf(['id,name', ' qboId '])).toEqual(['id', 'name', 'qboId']);
    expect(attributesOf('id,password')).toEqual({
      refused: {
        code: 'invalid',
        message:
          "attributes must name some of: id, name, displayName, street, city, state, zipCode, phone, qboId (not 'password')",
      },
    });
  });
  it('keeps only the wanted attributes of each row', () => {
    const row = {
      id: '1',
      name: 'N',
      displayName: 'N',
      street: null,
      city: null,
      state: null,
      zipCode: null,
      phone: null,
      qboId: null,
    };
    expect(keepAttributes([row], ['id', 'name'])).toEqual([{ id: '1', name: 'N' }]);
    expect(keepAttributes([row], [])).toEqual([row]);
  });
  it('trims the fields, clears an empty phone, keeps the display name equal to the name', () => {
    expect(companyFields({ name: ' Acme ', displayName: 'Other', phone: ' ', city: ' Bend ' })).toEqual({
      city: 'Bend',
      phone: null,
      name: 'Acme',
      displayName: 'Acme',
    });
    expect(newCompanyFields({ name: 'Acme', qboId: ' 9 ' })).toEqual({
      name: 'Acme',
      displayName: 'Acme',
      qboId: '9',
    });
    expect(newCompanyFields({ name: 'Acme', qboId: ' ' })).toEqual({ name: 'Acme', displayName: 'Acme' });
  });
  it('refuses an empty change or a blanked required field; sees when nothing changes', () => {
    expect(code(companyChangeRefusal({}))).toBe('nothingToChange');
    expect(companyChangeRefusal({ street: ' ' })).toEqual({
      refused: { code: 'invalid', message: 'street is required' },
    });
    expect(companyChangeRefusal({ phone: null })).toBeUndefined();
    expect(companyChanges({ name: 'A', phone: undefined }, { name: 'A', phone: null })).toBe(false);
    expect(companyChanges({ name: 'A' }, { name: 'B', displayName: 'B' })).toBe(true);
  });
  it('is deleted only without customers', () => {
    expect(companyDeletionRefusal(0)).toBeUndefined();
    expect(companyDeletionRefusal(2)).toEqual({
      refused: { code: 'companyHasCustomers', message: MESSAGES.companyHasCustomers },
    });
  });
});
