/** What the accounting-sync service answers (GET /qbo/status, /qbo/jobs/failed, /qbo/dead-letters). */

export interface QueueCounts {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  paused: boolean;
}

export interface QboStatus {
  connected: boolean;
  realmId: string | null;
  companyName: string | null;
  /** ISO time. */
  accessTokenExpiresAt: string | null;
  queues: QueueCounts[];
}

export interface FailedJob {
  queue: string;
  id: string;
  /** What kind of record the job syncs (customer, estimate, …). */
  kind: string;
  recordId: string;
  label: string;
  /** QuickBooks' (or the worker's) words on the last failure. */
  message: string;
  attemptsMade: number;
  failedAt: string | null;
  /** The trace of the request that queued it (search it in the trace viewer); null with tracing off. */
  traceId: string | null;
}

/** An event a consumer gave up on (contracts' view). */
export type { DeadLetterView as DeadLetter } from '@decor/contracts/rules';
