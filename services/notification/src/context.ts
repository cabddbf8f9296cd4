import type { BaseContext } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { NotificationConfig } from './config';
import type { Brand } from './domain/email';
import { type EmailJob, emailQueue, emailRetry } from './jobs/email-queue';
import { type ContactLimits, contactLimits } from './store/contact-limits';

export interface NotificationContext extends BaseContext<NotificationConfig> {
  brand: Brand;
  emails: Queue<EmailJob>;
  /** How many contact-form messages each address and sender may still send (shared through Redis). */
  contactLimits: ContactLimits;
}

export async function buildNotificationContext(
  base: BaseContext<NotificationConfig>,
): Promise<NotificationContext> {
  const { config } = base;
  // An unknown zone fails the start here, with Intl's message (not the first e-mail naming a moment).
  new Intl.DateTimeFormat('en-US', { timeZone: config.SHOP_TIME_ZONE });
  return {
    ...base,
    brand: {
      companyName: config.COMPANY_NAME,
      baseUrl: config.PUBLIC_BASE_URL.replace(/\/$/, ''),
      timeZone: config.SHOP_TIME_ZONE,
    },
    emails: emailQueue(base.redis, config.REDIS_PREFIX, emailRetry(config), base.log),
    contactLimits: contactLimits(base.redis, {
      prefix: config.REDIS_PREFIX,
      perAddress: config.CONTACT_MAX_PER_ADDRESS,
      perSender: config.CONTACT_MAX_PER_SENDER,
      windowSeconds: config.CONTACT_WINDOW_SECONDS,
    }),
  };
}
