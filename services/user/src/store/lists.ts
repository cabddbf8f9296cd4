import { PERMISSIONS } from '@decor/contracts';
import { type ListSpec, objectId, toMongoList } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import type { Company } from './company-model';
import type { User } from './user-model';

/** Case-insensitive prefix search and sort go through lower-case copies, so indexes serve them. */
export const USER_LIST: ListSpec = {
  orderFields: ['ownCompany', 'displayName', 'email', 'createdAt'],
  defaultOrder: 'createdAt:DESC',
  likeFields: ['ownCompany', 'displayName', 'email'],
  filters: {
    permissions: Type.Array(Type.Union(PERMISSIONS.map((p) => Type.Literal(p))), {
      maxItems: 3,
      'x-message': `must be one of: ${PERMISSIONS.join(', ')}`,
    }),
    CompanyId: objectId(),
    active: Type.Boolean(),
  },
  paths: { ownCompany: 'ownCompanyKey', displayName: 'displayNameKey' },
};

export const COMPANY_LIST: ListSpec = {
  orderFields: ['displayName', 'name', 'createdAt'],
  defaultOrder: 'createdAt:DESC',
  likeFields: ['name', 'displayName'],
  paths: { name: 'nameKey', displayName: 'displayNameKey' },
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The kit's list query, with the prefix match on the lower-case copy (an anchored, case-sensitive
 * regex, which an index serves; the kit's case-insensitive one cannot use it) and tombstones left out.
 */
export function listFilter(query: Record<string, unknown>, spec: ListSpec) {
  const list = toMongoList(query, spec);
  if (typeof query.like === 'string') {
    const at = query.like.indexOf(':');
    const field = query.like.slice(0, at);
    const path = spec.paths?.[field] ?? field;
    list.filter[path] = { $regex: `^${escapeRegex(query.like.slice(at + 1).toLowerCase())}` };
  }
  list.filter.deletedAt = null;
  return list;
}

/** A page of the staff users list and the total: from the roster when it can, else from Mongo. */
export async function listUsers(
  ctx: UserContext,
  query: Record<string, unknown>,
): Promise<{ items: User[]; total: number }> {
  const list = listFilter(query, USER_LIST);
  const page = await ctx.roster.page(list);
  if (page) {
    // Only the page's rows are read, by _id alone (mongo-java-server scans every document when
    // the query names another field too); one deleted since the roster was made is left out.
    const rows = await ctx.users.find({ _id: { $in: page.ids } }).lean<User[]>();
    const byId = new Map(rows.filter((u) => !u.deletedAt).map((u) => [u._id.toString(), u]));
    return { items: page.ids.flatMap((id) => byId.get(id) ?? []), total: page.total };
  }
  const { filter, sort, skip, limit } = list;
  const [items, total] = await Promise.all([
    ctx.users.find(filter).sort(sort).skip(skip).limit(limit).lean<User[]>(),
    ctx.users.countDocuments(filter),
  ]);
  return { items, total };
}

/** A page of the staff companies list and the total. */
export async function listCompanies(
  ctx: UserContext,
  query: Record<string, unknown>,
): Promise<{ items: Company[]; total: number }> {
  const { filter, sort, skip, limit } = listFilter(query, COMPANY_LIST);
  const [items, total] = await Promise.all([
    ctx.companies.find(filter).sort(sort).skip(skip).limit(limit).lean<Company[]>(),
    ctx.companies.countDocuments(filter),
  ]);
  return { items, total };
}
