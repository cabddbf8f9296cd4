import { randomUUID } from 'node:crypto';
import { type QboOutcome, QboRecordSynced, QboSyncFailed, type SyncedRecordKind } from '@decor/contracts';
import { createWorker, type JobWorker, type KitLogger, newEvent, PermanentJobError } from '@decor/kit';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { contentHash } from '../domain/documents';
import type { QboApi, QboEntity } from '../qbo/client';
import { QboFault, SessionExpired } from '../qbo/faults';
import { withRedisLock } from '../qbo/redis-lock';
import { LOCK_MARGIN_MS, RECORD_LOCK_MS, withQboDeadline } from '../qbo/time-box';
import { recordKey, type SyncRecordDoc } from '../store/record-model';
import { type PlanDeps, planFor } from './plans';
import { enqueueSync, requestIdFor, SYNC_QUEUE, type SyncJob, syncBackoff } from './sync-queue';

export interface SyncWorkerDeps extends PlanDeps {
  api: QboApi;
  queue: Queue<SyncJob>;
  redis: Redis;
  redisPrefix: string;
  concurrency: number;
  logger: KitLogger;
  eventsWritten(): void;
}

/** Orders: the order revision whose content the record holds (what the written document shows). */
function sourceRevisionOf(rec: SyncRecordDoc): { sourceRevision?: number } {
  const revision = (rec.data as { orderRevision?: unknown }).orderRevision;
  return typeof revision === 'number' ? { sourceRevision: revision } : {};
}

/** How long a job waits for a prerequisite record, or for another job holding its record. */
const WAIT_MS = 2_000;

/**
 * Staff send these to QuickBooks (spec §7), and a deposit's Payment waits for its invoice: a record
 * waiting for one never sends it and does not poll; the one it waits for enqueues it (DEPENDENTS).
 */
const SENT_BY_STAFF: readonly SyncedRecordKind[] = ['estimate', 'invoice', 'payment'];

/** Who waits for a record of a kind: the records of `kind` whose `field` names it. */
const DEPENDENTS: Partial<Record<SyncedRecordKind, { kind: SyncedRecordKind; field: string }>> = {
  invoice: { kind: 'payment', field: 'data.invoiceId' },
  payment: { kind: 'refund', field: 'data.intentId' },
};

/**
 * The QuickBooks sync worker. A job names a record and the revision it was enqueued for; it reads
 * the record as it is NOW (so a retry after the record was fixed writes the fix), writes it with a
 * requestid derived from the job, and stores the outcome with its QboRecordSynced event in one write.
 * Faults: 429/5xx/no answer retry with capped, jittered backoff; a stale SyncToken re-reads once; a
 * validation fault fails the job at once with QuickBooks' message; no session parks the job and
 * pauses the queue until staff reconnect.
 */
export function syncWorker(deps: SyncWorkerDeps): JobWorker<SyncJob> {
  const { records, api, queue, redis } = deps;

  async function delay(job: Job<SyncJob>, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  }

  /**
   * Undefined when another job holds this record's lock right now. Every QuickBooks call in `work`
   * ends (answered or aborted) before the lock can lapse, so a second job's write of the same
   * record never overlaps a call of this one still in flight (time-box.ts).
   */
  const withRecordLock = <T>(key: string, work: () => Promise<T>) =>
    withRedisLock(redis, `${deps.redisPrefix}:qbo-record-lock:${key}`, RECORD_LOCK_MS, (lockedUntil) =>
      withQboDeadline(lockedUntil - LOCK_MARGIN_MS, work),
    );

  async function recordOutcome(
    job: SyncJob,
    rec: SyncRecordDoc,
    saved: QboEntity,
    outcome: QboOutcome,
    hash?: string,
  ) {
    const set: Record<string, unknown> = {
      qboId: String(saved.Id),
      syncToken: String(saved.SyncToken),
      lastError: null,
    };
    if (hash !== undefined) set.syncedHash = hash;
    if (job.action === 'upsert') set.syncedRevision = job.revision;
    await records.updateOne(
      { _id: rec._id },
      {
        $set: set,
        $push: {
          outbox: newEvent(QboRecordSynced, {
            aggregateId: rec._id,
            correlationId: randomUUID(),
            payload: {
              kind: rec.kind,
              recordId: rec.recordId,
              qboId: String(saved.Id),
              syncToken: String(saved.SyncToken),
              action: outcome,
              revision: job.revision,
              ...sourceRevisionOf(rec),
            },
          }),
        },
      },
    );
    deps.eventsWritten();
    await releaseDependents(rec, String(saved.Id));
  }

  /**
   * The records that waited for this one to reach QuickBooks (their job ended 'waiting': a deposit
   * for its invoice, a refund for its deposit) are written now. Their record was stored before their
   * job first ran, so one that saw nothing yet is found here; the job id names this record's
   * QuickBooks id, so a later outcome adds none.
   */
  async function releaseDependents(rec: SyncRecordDoc, qboId: string) {
    const dependent = DEPENDENTS[rec.kind];
    if (!dependent) return;
    const waiting = await records
      .find(
        { kind: dependent.kind, [dependent.field]: rec.recordId, qboId: null },
        { recordId: 1, revision: 1 },
      )
      .lean<Pick<SyncRecordDoc, 'recordId' | 'revision'>[]>();
    for (const w of waiting)
      await enqueueSync(queue, {
        kind: dependent.kind,
        recordId: w.recordId,
        action: 'upsert',
        revision: w.revision,
        nonce: `${rec.kind}-${qboId}`,
      });
  }

  /** Update with the stored SyncToken; on a stale one, read the current and try once more. */
  async function update(
    job: SyncJob,
    entity: Parameters<QboApi['update']>[0],
    rec: SyncRecordDoc,
    doc: QboEntity,
  ) {
    const write = (syncToken: string) => {
      const body = { ...doc, Id: rec.qboId, SyncToken: syncToken };
      return api.update(entity, body, requestIdFor(job, contentHash(body)));
    };
    try {
      return await write(rec.syncToken ?? '0');
    } catch (err) {
      if (!(err instanceof QboFault) || err.kind !== 'stale') throw err;
      const current = await api.get(entity, rec.qboId as string);
      return write(String(current.SyncToken));
    }
  }

  async function upsert(job: SyncJob, rec: SyncRecordDoc, jobRef: Job<SyncJob>, token?: string) {
    if (job.revision < rec.syncedRevision) return 'superseded';
    const plan = await planFor(rec, deps);
    if ('waitFor' in plan) {
      // An order staff have not sent yet may stay out of QuickBooks for days: rather than poll, the
      // job ends and the order's own sync enqueues it again (releaseDeposits).
      if (plan.waitFor.some((w) => SENT_BY_STAFF.includes(w.kind))) return 'waiting';
      for (const w of plan.waitFor) await enqueuePrerequisite(w.kind, w.recordId);
      return delay(jobRef, token, WAIT_MS);
    }
    const hash = contentHash(plan.doc);
    if (rec.qboId && rec.syncedHash === hash) {
      // An order edited only where its document does not show (a Room, a note) is synced all the
      // same: its owner hears it (`unchanged`, with the order revision) and clears Pending Update.
      if ('orderRevision' in rec.data) {
        await recordOutcome(job, rec, { Id: rec.qboId, SyncToken: rec.syncToken ?? '0' }, 'unchanged');
        return 'unchanged';
      }
      await records.updateOne(
        { _id: rec._id, syncedRevision: { $lt: job.revision } },
        { $set: { syncedRevision: job.revision } },
      );
      return 'unchanged';
    }
    if (rec.qboId) {
      await recordOutcome(job, rec, await update(job, plan.entity, rec, plan.doc), 'updated', hash);
      return 'updated';
    }
    // A deposit's Payment (or refund) is one per PaymentIntent whichever job writes it (the first,
    // or one its prerequisite's sync enqueued): its requestid names the record and content only.
    const cause =
      rec.kind === 'payment' || rec.kind === 'refund' ? { ...job, revision: 0, nonce: undefined } : job;
    try {
      await recordOutcome(
        job,
        rec,
        await api.create(plan.entity, plan.doc, requestIdFor(cause, hash)),
        'created',
        hash,
      );
      return 'created';
    } catch (err) {
      // Already in QuickBooks under this name (an earlier run, or made there by hand): adopt it.
      if (!(err instanceof QboFault) || err.kind !== 'duplicate' || !plan.nameQuery) throw err;
      const [existing] = await api.query(plan.entity, `${plan.nameQuery} and Active IN (true, false)`);
      if (!existing) throw err;
      const adopted = { ...rec, qboId: String(existing.Id), syncToken: String(existing.SyncToken) };
      await recordOutcome(job, rec, await update(job, plan.entity, adopted, plan.doc), 'updated', hash);
      return 'adopted';
    }
  }

  async function enqueuePrerequisite(kind: SyncedRecordKind, recordId: string) {
    const dep = await records.findById(recordKey(kind, recordId), { revision: 1, qboId: 1 }).lean();
    // Not heard of yet: its event will enqueue it. Heard of: make sure its sync is on the way.
    if (dep && !dep.qboId)
      await enqueueSync(queue, { kind, recordId, action: 'upsert', revision: dep.revision });
  }

  async function act(job: SyncJob, rec: SyncRecordDoc): Promise<string> {
    if (!rec.qboId) throw new PermanentJobError(`${rec.kind} ${rec.label} is not in QuickBooks yet`);
    const entity = rec.kind === 'invoice' ? 'Invoice' : rec.kind === 'estimate' ? 'Estimate' : 'Item';
    const ref = { Id: rec.qboId, SyncToken: rec.syncToken ?? '0' };
    switch (job.action) {
      case 'send': {
        const sent = await api.send(entity as 'Estimate' | 'Invoice', rec.qboId, job.sendTo);
        await recordOutcome(job, rec, sent, 'sent');
        return 'sent';
      }
      case 'void': {
        // Void with the stored SyncToken; a stale one (the invoice changed in QuickBooks) is re-read once.
        const voidWith = (body: { Id: string; SyncToken: string }) =>
          api.voidInvoice(body, requestIdFor(job, contentHash(body)));
        let voided: QboEntity;
        try {
          voided = await voidWith(ref);
        } catch (err) {
          if (!(err instanceof QboFault) || err.kind !== 'stale') throw err;
          voided = await voidWith({
            ...ref,
            SyncToken: String((await api.get('Invoice', ref.Id)).SyncToken),
          });
        }
        await recordOutcome(job, rec, voided, 'voided');
        return 'voided';
      }
      case 'reject':
        await recordOutcome(
          job,
          rec,
          await update(job, 'Estimate', rec, { TxnStatus: 'Rejected' }),
          'rejected',
        );
        return 'rejected';
      case 'deactivate': {
        const doc = { Active: false, Name: (rec.data as { sku?: string }).sku ?? rec.label };
        await recordOutcome(job, rec, await update(job, entity, rec, doc), 'deactivated');
        return 'deactivated';
      }
      default:
        throw new PermanentJobError(`unknown action ${job.action}`);
    }
  }

  return createWorker<SyncJob>(
    SYNC_QUEUE,
    async (jobRef, token) => {
      const job = jobRef.data;
      const key = recordKey(job.kind, job.recordId);
      const result = await withRecordLock(key, async () => {
        const rec = await records.findById(key).lean<SyncRecordDoc>();
        if (!rec) throw new PermanentJobError(`no ${job.kind} ${job.recordId} is known to the sync`);
        try {
          return job.action === 'upsert' ? await upsert(job, rec, jobRef, token) : await act(job, rec);
        } catch (err) {
          if (err instanceof DelayedError) throw err;
          if (err instanceof SessionExpired) {
            // Park: no attempt is used up and nothing fails; the queue resumes on reconnect.
            await queue.pause();
            return delay(jobRef, token, WAIT_MS);
          }
          if (err instanceof QboFault && (err.kind === 'validation' || err.kind === 'duplicate')) {
            await records.updateOne(
              { _id: key },
              {
                $set: { lastError: err.message },
                $push: {
                  outbox: newEvent(QboSyncFailed, {
                    aggregateId: key,
                    correlationId: randomUUID(),
                    payload: { kind: rec.kind, recordId: rec.recordId, message: err.message },
                  }),
                },
              },
            );
            deps.eventsWritten();
            throw new PermanentJobError(`QuickBooks refused ${rec.kind} ${rec.label}: ${err.message}`);
          }
          throw err;
        }
      });
      // Another job holds this record right now: come back shortly (no attempt used).
      if (result === undefined) return delay(jobRef, token, WAIT_MS);
      return result;
    },
    {
      connection: redis,
      prefix: deps.redisPrefix,
      concurrency: deps.concurrency,
      logger: deps.logger,
      backoffStrategy: (attemptsMade) => syncBackoff(attemptsMade),
    },
  );
}
