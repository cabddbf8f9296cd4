/**
 * E-mails SMTP never took (their retries ran out, or the server refused them for good), as the
 * notification service lists them to staff and the back office's sync page shows them with Replay.
 * No TypeBox: the frontends import this file.
 */
export const FAILED_EMAILS_PATH = '/send/failed';

/** POST: sends the failed e-mail again, with a fresh set of attempts (202). */
export const failedEmailReplayPath = (id: string) => `${FAILED_EMAILS_PATH}/${encodeURIComponent(id)}/replay`;

/** One entry of GET /send/failed (newest first). */
export interface FailedEmail {
  /** The job's id (derived from the e-mail's cause). */
  id: string;
  to: string;
  subject: string;
  /** The SMTP server's (or the connection's) words on the last attempt. */
  error: string;
  attemptsMade: number;
  /** ISO time of the last attempt. */
  failedAt: string | null;
  /** The trace of what caused the e-mail (search it in the trace viewer), or null with tracing off. */
  traceId: string | null;
}

/** GET /send/queue: the e-mail queue's counts (many delayed and none sent lately: SMTP is down). */
export interface EmailQueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export const EMAIL_QUEUE_PATH = '/send/queue';

export const FAILED_EMAIL_TEXTS = {
  title: 'Failed e-mails',
  empty: 'No failed e-mails',
  replay: 'Replay',
  notFound: 'No failed e-mail with this id',
  retrying: (n: number) => `${n} e-mail${n === 1 ? '' : 's'} waiting to be retried`,
} as const;
