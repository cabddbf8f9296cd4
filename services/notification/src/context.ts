import type { BaseContext } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { NotificationConfig } from './config';
import type { Brand } from './domain/email';
import { type EmailJob, emailQueue } from './jobs/email-queue';

export interface NotificationContext extends BaseContext<NotificationConfig> {
  brand: Brand;
  emails: Queue<EmailJob>;
}

export function buildNotificationContext(base: BaseContext<NotificationConfig>): NotificationContext {
  const { config } = base;
  return {
    ...base,
    brand: { companyName: config.COMPANY_NAME, baseUrl: config.PUBLIC_BASE_URL.replace(/\/$/, '') },
    emails: emailQueue(base.redis, config.REDIS_PREFIX),
  };
}
