import type { UserContext } from '../context';
import { companyKeys } from './company-model';
import { derivedKeys } from './user-model';

/**
 * Users and companies stored before the lower-case search keys existed (or written by an upsert that
 * bypasses the model's hooks) get them at start, so the prefix searches and sorts find them. Idempotent;
 * a no-op once every record has its keys.
 */
export async function backfillSearchKeys(
  ctx: Pick<UserContext, 'users' | 'companies' | 'log' | 'roster'>,
): Promise<void> {
  let count = 0;
  for await (const user of ctx.users
    .find({ displayNameKey: { $exists: false } })
    .lean()
    .cursor()) {
    await ctx.users.updateOne({ _id: user._id }, { $set: derivedKeys(user) });
    count += 1;
  }
  for await (const company of ctx.companies
    .find({ nameKey: { $exists: false } })
    .lean()
    .cursor()) {
    await ctx.companies.updateOne({ _id: company._id }, { $set: companyKeys(company) });
    count += 1;
  }
  if (count === 0) return;
  ctx.roster.invalidate();
  ctx.log.info({ count }, 'search keys added to older users and companies');
}
