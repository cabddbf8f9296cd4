/** The notification service's failed e-mails and their Replay, as the back office's sync page shows them. */
export {
  EMAIL_QUEUE_PATH,
  type EmailQueueCounts,
  FAILED_EMAIL_TEXTS,
  FAILED_EMAILS_PATH,
  type FailedEmail,
  failedEmailReplayPath,
} from '@decor/contracts/rules';
