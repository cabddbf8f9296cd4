import {
  EMAIL_QUEUE_PATH,
  type EmailQueueCounts,
  FAILED_EMAIL_TEXTS,
  FAILED_EMAILS_PATH,
  type FailedEmail,
} from '@decor/contracts';
import { listFailedJobs, notFound, replayFailedJob, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { NotificationContext } from '../context';
import type { EmailJob } from '../jobs/email-queue';
import { NoQuery } from './schemas';

const FailedEmailSchema = Type.Object({
  id: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  error: Type.String(),
  attemptsMade: Type.Integer(),
  failedAt: Type.Union([Type.String(), Type.Null()]),
  traceId: Type.Union([Type.String(), Type.Null()]),
});

/** The sync page's failed e-mails and Replay (staff), and the queue's counts that show an SMTP outage. */
export async function failedEmailRoutes(app: ServiceApp, ctx: NotificationContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };

  app.get(
    FAILED_EMAILS_PATH,
    {
      ...staff,
      schema: {
        summary: 'E-mails that failed for good (newest first): retries ran out, or SMTP refused them',
        security: [{ session: [] }],
        querystring: NoQuery,
        response: { 200: Type.Object({ result: Type.Array(FailedEmailSchema) }) },
      },
    },
    async () => {
      const failed = await listFailedJobs(ctx.emails, { start: 0, end: 199 });
      const result: FailedEmail[] = failed.map((j) => {
        const { email } = j.data as EmailJob;
        return {
          id: j.id,
          to: email.to,
          subject: email.subject,
          error: j.failedReason,
          attemptsMade: j.attemptsMade,
          failedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
          traceId: j.traceId,
        };
      });
      return { result };
    },
  );

  app.post(
    `${FAILED_EMAILS_PATH}/:id/replay`,
    {
      ...staff,
      schema: {
        summary: 'Sends a failed e-mail again, with a fresh set of attempts',
        security: [{ session: [] }],
        querystring: NoQuery,
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 400 }) }),
        response: { 202: Type.Object({ result: Type.Object({ id: Type.String(), state: Type.String() }) }) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      try {
        await replayFailedJob(ctx.emails, id);
      } catch {
        throw notFound(FAILED_EMAIL_TEXTS.notFound);
      }
      reply.code(202);
      return { result: { id, state: await ctx.emails.getJobState(id) } };
    },
  );

  app.get(
    EMAIL_QUEUE_PATH,
    {
      ...staff,
      schema: {
        summary: 'How many e-mails wait, are being sent, wait for a retry (SMTP down?) or failed',
        security: [{ session: [] }],
        querystring: NoQuery,
        response: {
          200: Type.Object({
            result: Type.Object({
              waiting: Type.Integer(),
              active: Type.Integer(),
              delayed: Type.Integer(),
              failed: Type.Integer(),
            }),
          }),
        },
      },
    },
    async () => {
      const counts = await ctx.emails.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      const result: EmailQueueCounts = {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
      };
      return { result };
    },
  );
}
