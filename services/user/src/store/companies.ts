import { runFlow, stop } from '@decor/kit';
import { isValidObjectId, Types } from 'mongoose';
import type { UserContext } from '../context';
import { companyChanges, companyDeletionRefusal } from '../domain/companies';
import { type Refused, refuse } from '../domain/refusals';
import { type Company, companyDeletedEvent, companyKeys, companyUpsertedEvent } from './company-model';
import { changeDocument, isDuplicateKey } from './writes';

/** A company that is not deleted. */
export const liveCompanyById = (ctx: UserContext, id: string) =>
  ctx.companies.findOne({ _id: id, deletedAt: null }).lean<Company>();

/** A deletion's mark older than this was left by a process that died mid-way: it no longer counts. */
const DELETING_STALE_MS = 30_000;
const notBeingDeleted = () => ({
  $or: [{ deleting: null }, { deleting: { $lt: new Date(Date.now() - DELETING_STALE_MS) } }],
});

/** The live company a customer may belong to (not deleted, not being deleted), or the refusal. */
export async function parentCompany(ctx: UserContext, id: string | undefined): Promise<Company | Refused> {
  const company =
    id && isValidObjectId(id)
      ? await ctx.companies.findOne({ _id: id, deletedAt: null, ...notBeingDeleted() }).lean<Company>()
      : null;
  return company ?? refuse('selectParentCompany');
}

/** A new company with its CompanyUpserted event, in one insert; a taken name is refused. */
export async function createCompany(
  ctx: UserContext,
  fields: Record<string, string | null>,
  correlationId: string,
): Promise<Company | Refused> {
  const company = { _id: new Types.ObjectId(), ...fields } as unknown as Company;
  const doc = new ctx.companies({
    ...company,
    ...companyKeys(company),
    revision: 1,
    outbox: [companyUpsertedEvent(company, correlationId)],
  });
  try {
    await doc.save();
  } catch (err) {
    if (isDuplicateKey(err)) return refuse('companyNameTaken');
    throw err;
  }
  ctx.eventsWritten();
  return doc.toObject() as Company;
}

/** A company's fields changed with its CompanyUpserted event (the same values again write nothing). */
export async function changeCompany(
  ctx: UserContext,
  id: string,
  set: Record<string, string | null>,
  correlationId: string,
): Promise<Company | Refused> {
  try {
    const changed = await changeDocument<Company>(
      ctx.companies,
      id,
      () => liveCompanyById(ctx, id),
      (current) => {
        if (!companyChanges(current as unknown as Record<string, unknown>, set)) return null;
        const next = { ...current, ...set } as Company;
        return { set: { ...set, ...companyKeys(next) }, events: [companyUpsertedEvent(next, correlationId)] };
      },
    );
    return changed ?? refuse('companyNotFound');
  } catch (err) {
    if (isDuplicateKey(err)) return refuse('companyNameTaken');
    throw err;
  }
}

/**
 * Deletes a company without customers. Its customers are other documents, so it is three steps:
 * 1. "mark the company as being deleted" (undo: clear the mark): from then on no customer joins it;
 * 2. "find it has no customers" (refused while it has);
 * 3. "tombstone the company with CompanyDeleted" (its name freed; the event carries the old one).
 * A customer created meanwhile either is counted in 2 or sees the mark after its own insert and is
 * undone (`createAccount`), never orphaned. A process dying after 1 leaves a mark that goes stale.
 */
export async function deleteCompany(
  ctx: UserContext,
  id: string,
  correlationId: string,
): Promise<Refused | undefined> {
  let marked: Company | null = null;
  return runFlow<UserContext, Refused>(
    'delete a company',
    ctx,
    [
      {
        name: 'mark the company as being deleted',
        run: async () => {
          marked = await ctx.companies
            .findOneAndUpdate(
              { _id: id, deletedAt: null, ...notBeingDeleted() },
              { $set: { deleting: new Date() } },
            )
            .lean<Company>();
          if (marked) return undefined;
          return stop(
            (await liveCompanyById(ctx, id)) ? refuse('changedMeanwhile') : refuse('companyNotFound'),
          );
        },
        undo: async () => {
          await ctx.companies.updateOne({ _id: id }, { $set: { deleting: null } });
        },
      },
      {
        name: 'find it has no customers',
        run: async () => {
          const refused = companyDeletionRefusal(
            await ctx.users.countDocuments({ CompanyId: id, deletedAt: null }),
          );
          return refused && stop(refused);
        },
      },
      {
        name: 'tombstone the company with CompanyDeleted',
        run: () => tombstoneCompany(ctx, marked as Company, correlationId),
      },
    ],
    ctx.log,
  );
}

async function tombstoneCompany(ctx: UserContext, marked: Company, correlationId: string) {
  const id = marked._id.toString();
  await ctx.companies.updateOne(
    { _id: id },
    {
      $set: {
        deletedAt: new Date(),
        deleting: null,
        name: `deleted.${id}`,
        displayName: `deleted.${id}`,
        nameKey: `deleted.${id}`,
        displayNameKey: `deleted.${id}`,
      },
      $inc: { revision: 1 },
      $push: { outbox: companyDeletedEvent(marked, correlationId) },
    },
  );
  ctx.eventsWritten();
}
