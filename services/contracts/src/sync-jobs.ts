/**
 * QuickBooks sync jobs that ran out of attempts, as accounting-sync lists them to staff
 * (GET /qbo/jobs/failed) and the back office's sync page shows them with Retry.
 * No TypeBox: the frontends import this file.
 */
export interface FailedSyncJob {
  queue: string;
  id: string;
  /** What kind of record the job syncs (customer, estimate, …). */
  kind: string;
  recordId: string;
  label: string;
  /** QuickBooks' (or the worker's) words on the last failure. */
  message: string;
  attemptsMade: number;
  /** ISO time. */
  failedAt: string | null;
  /** The trace of the request that queued it (search it in the trace viewer); null with tracing off. */
  traceId: string | null;
}
