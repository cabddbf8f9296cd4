import { createHash } from 'node:crypto';
import type { SyncedRecordKind } from '@decor/contracts';
import { createQueue, enqueueOnce, jobIdFor, type KitLogger } from '@decor/kit';
import type { JobState, Queue } from 'bullmq';
import type { Redis } from 'ioredis';

export const SYNC_QUEUE = 'qbo-sync';

/**
 * upsert: create or update the record's QuickBooks document; send: e-mail an estimate/invoice from
 * QuickBooks; void: void an invoice; reject: reject an estimate; deactivate: a deleted product
 * becomes inactive (QuickBooks never deletes list records).
 */
export type SyncAction = 'upsert' | 'send' | 'void' | 'reject' | 'deactivate';

export interface SyncJob {
  kind: SyncedRecordKind;
  recordId: string;
  action: SyncAction;
  /** The record's revision this job was enqueued for (part of its id and its QuickBooks requestid). */
  revision: number;
  sendTo?: string;
  /** Send jobs: what makes a second send of the same revision a new job (the staff's request id). */
  nonce?: string;
}

/** QuickBooks' outages can last minutes: up to 30 attempts, each wait capped at 15 s (jittered). */
export const SYNC_ATTEMPTS = 30;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 15_000;

/** Exponential from 1 s, capped at 15 s, each wait a random 50-100 % of that (so retries spread). */
export function syncBackoff(attemptsMade: number, random = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

export function syncQueue(connection: Redis, prefix: string, logger?: KitLogger): Queue<SyncJob> {
  return createQueue<SyncJob>(SYNC_QUEUE, {
    connection,
    prefix,
    logger,
    defaultJobOptions: { attempts: SYNC_ATTEMPTS, backoff: { type: 'custom' } },
  });
}

export function syncJobId(job: SyncJob): string {
  return jobIdFor(
    'qbo',
    job.kind,
    job.recordId,
    job.action,
    `r${job.revision}`,
    ...(job.nonce ? [job.nonce] : []),
  );
}

/**
 * QuickBooks' requestid (≤ 50 chars, unique per company): the same job sending the same body —
 * retried, redelivered, or run by two workers — sends the same id, so QuickBooks answers the first
 * result again instead of creating a second document. `variant` is the body's hash: QuickBooks
 * replays a refusal too, so a job retried after its record was fixed must send a new id.
 */
export function requestIdFor(job: SyncJob, variant = ''): string {
  const digest = createHash('sha256')
    .update([job.kind, job.recordId, job.action, job.revision, job.nonce ?? '', variant].join('|'))
    .digest('base64url');
  return `decor-${digest.slice(0, 40)}`;
}

export interface Enqueued {
  jobId: string;
  state: JobState | 'unknown';
}

export async function enqueueSync(queue: Queue<SyncJob>, job: SyncJob): Promise<Enqueued> {
  const jobId = await enqueueOnce(queue, job.action, job, { jobId: syncJobId(job) });
  const state = await queue.getJobState(jobId);
  return { jobId, state };
}
