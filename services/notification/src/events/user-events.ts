import { type EventEnvelope, PasswordResetRequested, type PayloadOf } from '@decor/contracts';
import type { EventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { passwordResetEmail } from '../domain/password-reset-email';
import { enqueueEmail } from '../jobs/email-queue';

/** Handlers stay short: they render the e-mail and hand the slow SMTP work to the queue. */
export function userEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  return {
    [PasswordResetRequested.type]: async (event: EventEnvelope) => {
      const payload = event.payload as PayloadOf<typeof PasswordResetRequested>;
      const resetUrl = `${ctx.brand.baseUrl}/reset/${encodeURIComponent(payload.resetToken)}`;
      await enqueueEmail(ctx.emails, event.id, passwordResetEmail(ctx.brand, { ...payload, resetUrl }));
    },
  };
}
