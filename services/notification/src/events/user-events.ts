import { PasswordResetRequested, WelcomeEmailRequested } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { passwordResetEmail } from '../domain/password-reset-email';
import { welcomeEmail } from '../domain/welcome-email';
import { enqueueEmail } from '../jobs/email-queue';

/** The site's page that takes a reset link's token (also the welcome e-mail's set-password link). */
const resetPage = (ctx: NotificationContext, token: string) =>
  `${ctx.brand.baseUrl}/reset/${encodeURIComponent(token)}`;

/**
 * Handlers stay short: they render the e-mail and hand the slow SMTP work to the queue. The welcome
 * e-mail comes from WelcomeEmailRequested (a new account, or staff re-sending it), which carries the
 * set-password token; UserCreated itself sends nothing (seeded and imported accounts get none).
 */
export function userEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  return {
    ...eventHandler(PasswordResetRequested, async (event) => {
      const resetUrl = resetPage(ctx, event.payload.resetToken);
      await enqueueEmail(ctx.emails, event.id, passwordResetEmail(ctx.brand, { ...event.payload, resetUrl }));
    }),
    ...eventHandler(WelcomeEmailRequested, async (event) => {
      const { email, displayName, setPasswordToken, expiresAt } = event.payload;
      const setPasswordUrl = resetPage(ctx, setPasswordToken);
      await enqueueEmail(
        ctx.emails,
        event.id,
        welcomeEmail(ctx.brand, { email, displayName, setPasswordUrl, expiresAt }),
      );
    }),
  };
}
