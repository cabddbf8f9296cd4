import { qboAuthorizeUrl, redirectUri, signConnectState, verifyConnectState } from '@decor/contracts';
import { badRequest, conflict, hasRole, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';
import { invokeWith, quickBooksFor } from '../qbo/client';
import { SessionExpired } from '../qbo/faults';
import { exchangeCode, GrantRefused } from '../qbo/oauth';
import { useConnectState } from '../store/record-reads';
import { QBO_TEXTS, qboSessionExpired } from './texts';

const Message = Type.Object({ message: Type.String() });

/** The staff connection to QuickBooks: callback, Connect, Renew and the status of /admin/sync. */
export async function connectionRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };

  app.get(
    '/auth/accessToken',
    {
      ...staff,
      schema: {
        summary:
          'Finishes the QuickBooks sign-in: checks the state issued at staff sign-in (one use, 10 minutes, ' +
          'same staff member), exchanges the code and keeps the tokens here (never in the answer); ' +
          '409 when an admin signs in to a company other than the one on record (a superadmin may switch)',
        security: [{ session: [] }],
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 2000 })),
          state: Type.Optional(Type.String({ maxLength: 2000 })),
          realmId: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{1,40}$' })),
          error: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Type.Object({
            result: Type.Object({
              connected: Type.Boolean(),
              realmId: Type.String(),
              companyName: Type.Union([Type.String(), Type.Null()]),
            }),
          }),
          400: Message,
          409: Message,
        },
      },
    },
    async (request) => {
      const { code, state, realmId, error } = request.query;
      if (error || !code || !state || !realmId) throw badRequest(QBO_TEXTS.signInFailed);
      const check = verifyConnectState(ctx.config.JWT_SECRET, state);
      if (!check.ok || check.userId !== request.user.id) throw badRequest(QBO_TEXTS.signInFailed);
      if (!(await useConnectState(ctx, check))) throw badRequest(QBO_TEXTS.signInFailed);
      // Before the code is exchanged: an admin cannot point every later sync at a company of theirs.
      const onRecord = (await ctx.sessions.status()).realmId;
      if (onRecord && onRecord !== realmId && !hasRole(request.user, 'superadmin')) {
        request.log.warn({ realmId, onRecord }, 'refused a QuickBooks sign-in to another company');
        throw conflict(QBO_TEXTS.otherCompany);
      }
      let tokens: Awaited<ReturnType<typeof exchangeCode>>;
      try {
        tokens = await exchangeCode(ctx.config, code, redirectUri(ctx.config));
      } catch (err) {
        if (err instanceof GrantRefused) throw badRequest(QBO_TEXTS.signInFailed);
        throw err;
      }
      const info = (await invokeWith(
        quickBooksFor(ctx.config, { realmId, accessToken: tokens.accessToken }),
        (qb, done) => qb.getCompanyInfo(realmId, done as never),
        ctx.config.QBO_CALL_TIMEOUT_MS,
      ).catch(() => null)) as { CompanyName?: string } | null;
      const companyName = info?.CompanyName ?? null;
      await ctx.sessions.connect({ realmId, companyName, tokens, userId: request.user.id });
      // Jobs parked while the session was gone go on now.
      await ctx.syncQueue.resume();
      request.log.info({ realmId }, 'connected to QuickBooks');
      return { result: { connected: true, realmId, companyName } };
    },
  );

  app.get(
    '/qbo/connect',
    {
      ...staff,
      schema: {
        summary: 'The QuickBooks authorize URL for this staff member (Connect on /admin/sync)',
        security: [{ session: [] }],
        response: { 200: Type.Object({ result: Type.Object({ url: Type.String() }) }) },
      },
    },
    async (request) => ({
      result: { url: qboAuthorizeUrl(ctx.config, signConnectState(ctx.config.JWT_SECRET, request.user.id)) },
    }),
  );

  app.get(
    '/qbo/get/renewToken',
    {
      ...staff,
      schema: {
        summary: 'Refreshes the QuickBooks access token now; 401 with qbo-session-expired when it cannot',
        security: [{ session: [] }],
        response: { 200: Message, 401: Message },
      },
    },
    async () => {
      try {
        await ctx.sessions.renew();
      } catch (err) {
        if (err instanceof SessionExpired || err instanceof GrantRefused)
          throw qboSessionExpired(QBO_TEXTS.renewFailed);
        throw err;
      }
      await ctx.syncQueue.resume();
      return { message: QBO_TEXTS.renewed };
    },
  );

  const QueueCounts = Type.Object({
    name: Type.String(),
    waiting: Type.Integer(),
    active: Type.Integer(),
    delayed: Type.Integer(),
    failed: Type.Integer(),
    completed: Type.Integer(),
    paused: Type.Boolean(),
  });

  app.get(
    '/qbo/status',
    {
      ...staff,
      schema: {
        summary: 'The QuickBooks connection (never its tokens) and the sync queue counts',
        security: [{ session: [] }],
        response: {
          200: Type.Object({
            result: Type.Object({
              connected: Type.Boolean(),
              realmId: Type.Union([Type.String(), Type.Null()]),
              companyName: Type.Union([Type.String(), Type.Null()]),
              accessTokenExpiresAt: Type.Union([Type.String(), Type.Null()]),
              lostReason: Type.Union([Type.String(), Type.Null()]),
              queues: Type.Array(QueueCounts),
            }),
          }),
        },
      },
    },
    async () => {
      const [status, counts, paused] = await Promise.all([
        ctx.sessions.status(),
        ctx.syncQueue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
        ctx.syncQueue.isPaused(),
      ]);
      const queue = {
        name: ctx.syncQueue.name,
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
        completed: counts.completed ?? 0,
        paused,
      };
      return { result: { ...status, queues: [queue] } };
    },
  );
}

export { qboSessionExpired };
