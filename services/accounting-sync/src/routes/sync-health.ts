import { DeadLetterView, type FailedSyncJob } from '@decor/contracts';
import { listFailedJobs, notFound, replayFailedJob, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';
import { listDeadLetters, replayDeadLetter } from '../events/dead-letters';
import type { SyncJob } from '../jobs/sync-queue';
import { recordKey } from '../store/record-model';
import { recordLabels } from '../store/record-reads';

/** /admin/sync's failed jobs: the record, QuickBooks' message, and Retry. */
export async function syncHealthRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };

  app.get(
    '/qbo/jobs/failed',
    {
      ...staff,
      schema: {
        summary: 'Sync jobs that failed for good (newest first), with the record and QuickBooks’ message',
        security: [{ session: [] }],
        response: {
          200: Type.Object({
            result: Type.Array(
              Type.Object({
                queue: Type.String(),
                id: Type.String(),
                kind: Type.String(),
                recordId: Type.String(),
                label: Type.String(),
                message: Type.String(),
                attemptsMade: Type.Integer(),
                failedAt: Type.Union([Type.String(), Type.Null()]),
                // The trace of the request that queued it, its QuickBooks calls and retries within.
                traceId: Type.Union([Type.String(), Type.Null()]),
              }),
            ),
          }),
        },
      },
    },
    async () => {
      const failed = await listFailedJobs(ctx.syncQueue, { start: 0, end: 199 });
      const keys = failed.map((j) => recordKey((j.data as SyncJob).kind, (j.data as SyncJob).recordId));
      const labels = await recordLabels(ctx, keys);
      return {
        result: failed.map((j): FailedSyncJob => {
          const data = j.data as SyncJob;
          return {
            queue: ctx.syncQueue.name,
            id: j.id,
            kind: data.kind,
            recordId: data.recordId,
            label: labels.get(recordKey(data.kind, data.recordId)) ?? data.recordId,
            message: j.failedReason,
            attemptsMade: j.attemptsMade,
            failedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
            traceId: j.traceId,
          };
        }),
      };
    },
  );

  app.post(
    '/qbo/jobs/:queue/:id/retry',
    {
      ...staff,
      schema: {
        summary: 'Runs a failed sync job again with fresh attempts (it reads the record as it is now)',
        security: [{ session: [] }],
        params: Type.Object({ queue: Type.String({ maxLength: 100 }), id: Type.String({ maxLength: 400 }) }),
        response: { 202: Type.Object({ result: Type.Object({ id: Type.String(), state: Type.String() }) }) },
      },
    },
    async (request, reply) => {
      const { queue, id } = request.params;
      if (queue !== ctx.syncQueue.name) throw notFound('Queue not found');
      try {
        await replayFailedJob(ctx.syncQueue, id);
      } catch {
        throw notFound('No failed job with this id');
      }
      reply.code(202);
      return { result: { id, state: await ctx.syncQueue.getJobState(id) } };
    },
  );
}

/** /admin/sync's dead-lettered events and Replay. */
export async function deadLetterRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };
  app.get(
    '/qbo/dead-letters',
    {
      ...staff,
      schema: {
        summary: "Events this service's consumers dead-lettered (newest first)",
        security: [{ session: [] }],
        response: {
          200: Type.Object({
            result: Type.Array(DeadLetterView),
          }),
        },
      },
    },
    async () => ({ result: await listDeadLetters(ctx) }),
  );

  app.post(
    '/qbo/dead-letters/:id/replay',
    {
      ...staff,
      schema: {
        summary: 'Puts a dead-lettered event back on its topic for this service to handle again',
        security: [{ session: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 400 }) }),
        response: { 202: Type.Object({ result: Type.Object({ id: Type.String() }) }) },
      },
    },
    async (request, reply) => {
      if (!(await replayDeadLetter(ctx, request.params.id)))
        throw notFound('No dead-lettered event with this id');
      reply.code(202);
      return { result: { id: request.params.id } };
    },
  );
}
