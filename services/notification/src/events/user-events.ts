import { PasswordResetRequested, UserCreated } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { passwordResetEmail } from '../domain/password-reset-email';
import { welcomeEmail } from '../domain/welcome-email';
import { enqueueEmail } from '../jobs/email-queue';

/** Handlers stay short: they render the e-mail and hand the slow SMTP work to the queue. */
export function userEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  return {
    ...eventHandler(PasswordResetRequested, async (event) => {
      const resetUrl = `${ctx.brand.baseUrl}/reset/${encodeURIComponent(event.payload.resetToken)}`;
      await enqueueEmail(ctx.emails, event.id, passwordResetEmail(ctx.brand, { ...event.payload, resetUrl }));
    }),
    ...eventHandler(UserCreated, async (event) => {
      if (event.payload.welcome === false) return; // seeded or imported accounts (demo logins)
      await enqueueEmail(ctx.emails, event.id, welcomeEmail(ctx.brand, event.payload));
    }),
  };
}
