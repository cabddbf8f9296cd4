import { Value } from '@sinclair/typebox/value';
import { CompanyChanges, NewCompany } from '../src';

describe('the company request bodies (spec orders §3 Company)', () => {
  const acme = { name: 'Acme', displayName: 'Acme', street: '1 Main St', city: 'Portland', state: 'OR' };

  it('a new company: its details, and the QuickBooks id when imported', () => {
    expect(Value.Check(NewCompany, { ...acme, zipCode: '97205', phone: '503-555-0100' })).toBe(true);
    expect(Value.Check(NewCompany, { ...acme, qboId: '58' })).toBe(true);
    expect(Value.Check(NewCompany, { ...acme, qboId: '' })).toBe(false);
  });

  it('every field is optional: the user service names what is missing itself (a 400 with its message)', () => {
    expect(Value.Check(NewCompany, {})).toBe(true);
    expect(Value.Check(CompanyChanges, {})).toBe(true);
  });

  it('a change names only company details: no QuickBooks id, nothing else', () => {
    expect(Value.Check(CompanyChanges, { city: 'Salem' })).toBe(true);
    expect(Value.Check(CompanyChanges, { qboId: '58' })).toBe(false);
    expect(Value.Check(NewCompany, { ...acme, id: 'x' })).toBe(false);
  });

  it('an empty or null phone clears it; the lengths are bounded', () => {
    expect(Value.Check(CompanyChanges, { phone: null })).toBe(true);
    expect(Value.Check(CompanyChanges, { phone: '' })).toBe(true);
    expect(Value.Check(CompanyChanges, { phone: '5'.repeat(51) })).toBe(false);
    expect(Value.Check(CompanyChanges, { state: 'O'.repeat(101) })).toBe(false);
    expect(Value.Check(CompanyChanges, { zipCode: '9'.repeat(21) })).toBe(false);
    expect(Value.Check(CompanyChanges, { name: 'A'.repeat(201) })).toBe(false);
  });
});
