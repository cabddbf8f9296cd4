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

/** A sync job that ran out of attempts (contracts' view). */
/** An event a consumer gave up on (contracts' view). */
export type { DeadLetterView as DeadLetter, FailedSyncJob as FailedJob } from '@decor/contracts/rules';
