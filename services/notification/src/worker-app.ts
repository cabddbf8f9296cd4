import type { WorkerDefinition } from '@decor/kit';
import type { NotificationConfig } from './config';
import { emailRetry, emailWorker } from './jobs/email-queue';
import { storedFiles } from './jobs/stored-files';

/** The notification worker process: sends the queued e-mails through SMTP. */
export function notificationWorkers(config: NotificationConfig): WorkerDefinition<NotificationConfig> {
  return {
    name: 'notification-worker',
    config,
    workers: ({ redis, log }) => [
      emailWorker({
        connection: redis,
        prefix: config.REDIS_PREFIX,
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        concurrency: config.EMAIL_CONCURRENCY,
        logger: log,
        jwtSecret: config.JWT_SECRET,
        retry: emailRetry(config),
        files: storedFiles(config),
      }),
    ],
  };
}
