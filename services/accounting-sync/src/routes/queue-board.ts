import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { SESSION_MESSAGES } from '@decor/contracts';
import { AUDIENCES, REQUIRED_CLAIMS, SESSIONS_WAIT_MS, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';

/** Where the browser sees the board: through the gateway, under /api. */
export const BOARD_PATH = '/api/admin/queues';
const COOKIE = 'decor_queue_board';
const SESSION_SECONDS = 15 * 60;

/**
 * Bull Board for superadmins. A browser opening the board sends no Authorization header (the session
 * token lives in session storage), so /admin/sync first asks for a short board session: an HttpOnly,
 * SameSite=Strict cookie that is sent to the board's path only.
 */
export async function queueBoardRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  app.post(
    '/qbo/board-session',
    {
      onRequest: app.requireRole('superadmin'),
      schema: {
        summary: 'A 15-minute cookie for the queue dashboard at /api/admin/queues (superadmins)',
        security: [{ session: [] }],
        response: { 200: Type.Object({ result: Type.Object({ url: Type.String() }) }) },
      },
    },
    async (request, reply) => {
      // Its own audience: no other route accepts it, and it accepts no session token.
      const token = app.signToken(request.user, {
        expiresIn: `${SESSION_SECONDS}s`,
        audience: AUDIENCES.queueBoard,
        sessionVersion: request.user.sessionVersion,
      });
      const secure = ctx.config.PUBLIC_BASE_URL.startsWith('https:') ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${COOKIE}=${token}; Path=${BOARD_PATH}; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
      );
      return { result: { url: BOARD_PATH } };
    },
  );

  await app.register(async (board) => {
    // Answered here rather than thrown: Bull Board's own error handler would turn a throw into a 500.
    board.addHook('onRequest', async (request, reply) => {
      const refuse = (status: number, message: string) => reply.code(status).send({ message });
      const cookie = /(?:^|;\s*)decor_queue_board=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      if (!cookie) return refuse(401, 'Sign in as a superadmin and open the dashboard from /admin/sync');
      let claims: { sub?: string; permissions?: string; email?: string; sv?: unknown };
      try {
        claims = app.jwt.verify(cookie, {
          allowedAud: AUDIENCES.queueBoard,
          requiredClaims: [...REQUIRED_CLAIMS],
        } as never);
      } catch {
        return refuse(401, 'Your dashboard session has expired: open it again from /admin/sync');
      }
      if (claims.permissions !== 'superadmin') return refuse(403, 'You are not allowed to do this');
      // The cookie names a session: until this process has read which sessions ended, it waits as a
      // session token does, then refuses (a restarted service would take a signed-out admin's cookie).
      if (!(await ctx.sessionVersions.whenCaughtUp(SESSIONS_WAIT_MS))) {
        reply.header('retry-after', '5');
        return refuse(503, SESSION_MESSAGES.unchecked);
      }
      if (ctx.sessionVersions.refusal(claims.sub ?? '', claims.sv))
        return refuse(401, 'Your dashboard session has expired: open it again from /admin/sync');
    });
    const adapter = new FastifyAdapter();
    adapter.setBasePath(BOARD_PATH);
    createBullBoard({
      queues: [new BullMQAdapter(ctx.syncQueue)],
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'QuickBooks sync' } },
    });
    await board.register(adapter.registerPlugin(), { prefix: '/admin/queues' });
  });
}
