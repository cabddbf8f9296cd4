import { type BaseContext, waitForCatchUp } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { Admin } from 'kafkajs';
import type { NotificationConfig } from './config';
import type { Brand } from './domain/email';
import { type EmailJob, emailQueue, emailRetry } from './jobs/email-queue';
import { type ContactLimits, contactLimits } from './store/contact-limits';
import { type OrderOwners, orderOwners } from './store/order-owners';

/** The consumer that keeps `orderOwners` (its own group, so a new deployment reads the whole order topic). */
export const ORDER_OWNERS_CONSUMER = 'orders';

export interface NotificationContext extends BaseContext<NotificationConfig> {
  brand: Brand;
  emails: Queue<EmailJob>;
  /** How many contact-form messages each address and sender may still send (shared through Redis). */
  contactLimits: ContactLimits;
  /** Whose each order is, from the order events. */
  orderOwners: OrderOwners;
  /**
   * Waits (at most ~3 s) until `orderOwners` reflects every order event published before the call:
   * an order the caller just created in the order service is then known here.
   */
  orderOwnersCaughtUp(): Promise<boolean>;
  kafkaAdmin: Admin;
}

export async function buildNotificationContext(
  base: BaseContext<NotificationConfig>,
): Promise<NotificationContext> {
  const { config } = base;
  const kafkaAdmin = base.kafka.admin();
  await kafkaAdmin.connect();
  return {
    ...base,
    brand: { companyName: config.COMPANY_NAME, baseUrl: config.PUBLIC_BASE_URL.replace(/\/$/, '') },
    emails: emailQueue(base.redis, config.REDIS_PREFIX, emailRetry(config)),
    contactLimits: contactLimits(base.redis, {
      prefix: config.REDIS_PREFIX,
      perAddress: config.CONTACT_MAX_PER_ADDRESS,
      perSender: config.CONTACT_MAX_PER_SENDER,
      windowSeconds: config.CONTACT_WINDOW_SECONDS,
    }),
    orderOwners: orderOwners(base.connection),
    orderOwnersCaughtUp: () =>
      waitForCatchUp({
        admin: kafkaAdmin,
        connection: base.connection,
        groupId: `${config.KAFKA_TOPIC_PREFIX}.${base.name}.${ORDER_OWNERS_CONSUMER}`,
        topic: base.topic('order'),
      }),
    kafkaAdmin,
  };
}
