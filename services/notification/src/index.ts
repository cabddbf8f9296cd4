/** The package entry: what other workspaces (the gateway's and the browser journeys' stacks, benches) may use; main.ts starts the process. */
export { notificationService } from './app';
export { loadNotificationConfig, notificationConfigSchema } from './config';
export type { NotificationContext } from './context';
export { type EmailJob, emailQueue } from './jobs/email-queue';
export { notificationWorkers } from './worker-app';
