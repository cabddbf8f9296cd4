import { EstimateSubmitted } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { estimateReceivedEmail, newEstimateStaffEmail } from '../domain/estimate-emails';
import { enqueueEmail } from '../jobs/email-queue';

export function orderEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  return {
    // Two e-mails from one event, each with its own job id: a redelivery (or a retry after one of
    // the two was queued) adds neither again.
    ...eventHandler(EstimateSubmitted, async (event) => {
      await enqueueEmail(ctx.emails, `${event.id}.customer`, estimateReceivedEmail(ctx.brand, event.payload));
      await enqueueEmail(
        ctx.emails,
        `${event.id}.staff`,
        newEstimateStaffEmail(ctx.brand, ctx.config.STAFF_EMAIL, event.payload),
      );
    }),
  };
}
