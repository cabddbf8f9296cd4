import { compareValues, type RosterEntry, rosterPage, sortRoster } from '../src/domain/roster-page';

const entry = (id: string, fields: Record<string, string | number | boolean | null>): RosterEntry => ({
  _id: id,
  ...fields,
});

const roster = [
  entry('0003', { permissions: 'customer', ownCompanyKey: 'acme', email: 'c@x.example', active: true }),
  entry('0001', { permissions: 'customer', ownCompanyKey: 'birch', email: 'a@x.example', active: false }),
  entry('0002', { permissions: 'admin', ownCompanyKey: null, email: 'b@x.example', active: true }),
  entry('0004', { permissions: 'customer', ownCompanyKey: 'acme', email: 'd@y.example', active: true }),
];

describe('staff list pages from the roster (same meaning as the Mongo query)', () => {
  it('sorts by the order field, then _id, missing values first as Mongo does', () => {
    const asc = sortRoster(roster, { ownCompanyKey: 1, _id: 1 }).map((e) => e._id);
    expect(asc).toEqual(['0002', '0003', '0004', '0001']);
    const desc = sortRoster(roster, { ownCompanyKey: -1, _id: -1 }).map((e) => e._id);
    expect(desc).toEqual(['0001', '0004', '0003', '0002']);
  });

  it('filters by equality, $in, null and an anchored prefix, then pages with the total', () => {
    const sorted = sortRoster(roster, { ownCompanyKey: 1, _id: 1 });
    const list = (filter: Record<string, unknown>, skip = 0, limit = 20) =>
      rosterPage(sorted, { filter, sort: { ownCompanyKey: 1, _id: 1 }, skip, limit });
    expect(list({ permissions: { $in: ['customer'] }, deletedAt: null })).toEqual({
      ids: ['0003', '0004', '0001'],
      total: 3,
    });
    expect(list({ permissions: 'customer', active: true })).toEqual({ ids: ['0003', '0004'], total: 2 });
    expect(list({ ownCompanyKey: { $regex: '^ac' } }, 1, 1)).toEqual({ ids: ['0004'], total: 2 });
    expect(list({ email: { $regex: '^d@y\\.example' } })).toEqual({ ids: ['0004'], total: 1 });
    expect(list({ ownCompanyKey: { $regex: '^zz' } })).toEqual({ ids: [], total: 0 });
  });

  it('leaves a filter it does not understand to Mongo', () => {
    const sorted = sortRoster(roster, { _id: 1 });
    expect(
      rosterPage(sorted, { filter: { createdAt: { $gt: 5 } }, sort: { _id: 1 }, skip: 0, limit: 20 }),
    ).toBe(undefined);
    expect(
      rosterPage(sorted, {
        filter: { email: { $regex: 'x', $options: 'i' } },
        sort: { _id: 1 },
        skip: 0,
        limit: 5,
      }),
    ).toBe(undefined);
  });

  it('orders values of different kinds like Mongo (null < numbers < strings < booleans)', () => {
    expect([true, 'a', 2, null].sort(compareValues)).toEqual([null, 2, 'a', true]);
  });
});
