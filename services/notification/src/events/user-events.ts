import { PasswordResetRequested, WelcomeEmailRequested } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { passwordResetEmail } from '../domain/password-reset-email';
import { welcomeEmail } from '../domain/welcome-email';
import {
  EMAIL_JOB_ID_HOLDS_MS,
  enqueueEmail,
  RESET_TOKEN_PLACEHOLDER,
  resetPageUrl,
} from '../jobs/email-queue';

/**
 * Handlers stay short: they render the e-mail and hand the slow SMTP work to the queue. The welcome
 * e-mail comes from WelcomeEmailRequested (a new account, or staff re-sending it); UserCreated itself
 * sends nothing (seeded and imported accounts get none). Both events name a reset by id: the e-mail is
 * rendered around a placeholder and the worker mints the link when it sends (src/jobs/email-queue.ts).
 * Each queues one job whose id is the event's, so a redelivery adds nothing (`idempotentForMs`), and no
 * e-mail depends on another's order (the worker sends several at once anyway): a batch's are queued
 * side by side (`unordered`), their adds travelling to Redis together.
 */
const ONE_JOB_PER_EVENT = { idempotentForMs: EMAIL_JOB_ID_HOLDS_MS, unordered: true };

export function userEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  const resetUrl = resetPageUrl(ctx.brand.baseUrl, RESET_TOKEN_PLACEHOLDER);
  return {
    ...eventHandler(
      PasswordResetRequested,
      async (event) => {
        const { email, displayName, userId, resetId, expiresAt } = event.payload;
        await enqueueEmail(
          ctx.emails,
          event.id,
          passwordResetEmail(ctx.brand, { email, displayName, resetUrl }),
          { userId, resetId, expiresAt },
        );
      },
      ONE_JOB_PER_EVENT,
    ),
    ...eventHandler(
      WelcomeEmailRequested,
      async (event) => {
        const { email, displayName, userId, resetId, expiresAt } = event.payload;
        await enqueueEmail(
          ctx.emails,
          event.id,
          welcomeEmail(ctx.brand, { email, displayName, setPasswordUrl: resetUrl, expiresAt }),
          { userId, resetId, expiresAt },
        );
      },
      ONE_JOB_PER_EVENT,
    ),
  };
}
