import type { SyncedRecordKind } from '@decor/contracts';
import type { AccountingSyncContext } from '../context';
import type { SiteRecordRef } from '../domain/import-listing';
import { recordKey } from './record-model';

/** The record of a site order as this service projected it (its data and QuickBooks id), or null. */
export const orderSyncRecord = (ctx: AccountingSyncContext, kind: SyncedRecordKind, id: string) =>
  ctx.records.findById(recordKey(kind, id), { kind: 1, data: 1, qboId: 1 }).lean();

/** The record of a site record under any of `kinds` (its kind and revision), or null. */
export const recordOfKinds = (ctx: AccountingSyncContext, kinds: readonly SyncedRecordKind[], id: string) =>
  ctx.records.findOne({ _id: { $in: kinds.map((k) => recordKey(k, id)) } }, { kind: 1, revision: 1 }).lean();

/** The site record synced to QuickBooks as `qboId` of this kind, or null. */
export const recordByQboId = (ctx: AccountingSyncContext, kind: SyncedRecordKind, qboId: string) =>
  ctx.records.findOne({ kind, qboId }, { recordId: 1 }).lean();

/** The labels of these records (by record key), for the failed jobs' list. */
export async function recordLabels(
  ctx: AccountingSyncContext,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const records = await ctx.records.find({ _id: { $in: keys } }, { label: 1 }).lean();
  return new Map(records.map((r) => [r._id, r.label]));
}

/**
 * Records a QuickBooks sign-in's state as used (its nonce, once): false when it was used already
 * (a replayed return from QuickBooks).
 */
export async function useConnectState(
  ctx: AccountingSyncContext,
  state: { nonce: string; userId: string; expiresAt: number },
): Promise<boolean> {
  try {
    await ctx.usedStates.create({
      _id: state.nonce,
      userId: state.userId,
      expiresAt: new Date(state.expiresAt),
    });
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return false;
    throw err;
  }
}

/**
 * Which QuickBooks ids belong to site records: this service's own records of what it synced (or
 * adopted) and the site has not deleted since, never another service's database.
 */
export async function siteRecords(
  ctx: AccountingSyncContext,
  rows: Array<{ Id?: unknown }>,
): Promise<Map<string, SiteRecordRef>> {
  const qboIds = rows.map((r) => String(r.Id));
  const recs = qboIds.length
    ? await ctx.records
        .find(
          { kind: { $in: ['company', 'customer'] }, qboId: { $in: qboIds }, deletedAt: null },
          { kind: 1, recordId: 1, qboId: 1 },
        )
        .lean<Array<{ kind: 'company' | 'customer'; recordId: string; qboId: string }>>()
    : [];
  const site = new Map<string, SiteRecordRef>();
  for (const r of recs) {
    // A company record wins over a customer record holding the same id (a parent needs a company).
    if (!site.has(r.qboId) || r.kind === 'company') site.set(r.qboId, { kind: r.kind, recordId: r.recordId });
  }
  return site;
}
