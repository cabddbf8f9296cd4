import {
  AUTH_MESSAGES,
  badRequest,
  bearerToken,
  forbidden,
  hasRole,
  notFound,
  objectIdParam,
  type ServiceApp,
  unauthorized,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserContext } from '../context';
import { MESSAGES } from '../domain/admin-rules';
import { hashPassword, passwordProblem, verifyPassword } from '../domain/password';
import { RESET_LINK_INVALID, RESET_PURPOSE } from '../domain/password-reset';
import { endSessions } from '../store/sessions';
import { publicUser } from '../store/user-model';
import { changeUser, UserChangeFields, type UserChanges } from './admin-users';
import { usableResetUser } from './password-reset';
import { MessageResult, UserView } from './schemas';

export const USER_NOT_FOUND = 'User not found';
export const PASSWORD_UPDATED = 'Password updated';
/** Changing one's password with a session needs the current one (a reset link needs none). */
export const CURRENT_PASSWORD_REQUIRED = 'Please enter your current password';
export const CURRENT_PASSWORD_WRONG = 'Your current password is incorrect';

/** A reset link's token (it has a purpose claim); checked for real by `usableResetUser`. */
function isResetToken(app: ServiceApp, token: string): boolean {
  try {
    return app.jwt.decode<{ purpose?: unknown }>(token)?.purpose === RESET_PURPOSE;
  } catch {
    return false;
  }
}

export async function userRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  // The gateway lets every /user call through (a reset token has no permissions claim), so the
  // token is checked here, before the id is validated: no token or a bad one is a 401 whatever the path.
  const sessionOrResetToken = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized(AUTH_MESSAGES.missing);
    if (!isResetToken(app, token)) await app.authenticate(request, reply);
  };

  app.get(
    '/user/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'One user: oneself, or anyone for staff',
        security: [{ session: [] }],
        params: objectIdParam,
        response: { 200: Type.Object({ result: UserView }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      // A customer asking for someone else learns nothing, not even that the id exists.
      if (request.user.id !== id && !hasRole(request.user, 'staff')) throw notFound(USER_NOT_FOUND);
      const user = await ctx.users.findOne({ _id: id, deletedAt: null });
      if (!user) throw notFound(USER_NOT_FOUND);
      return { result: publicUser(user) };
    },
  );

  app.put(
    '/user/:id',
    {
      onRequest: sessionOrResetToken,
      schema: {
        summary:
          "Change one's own password (alone): with a session token and `currentPassword` (answers a new " +
          "session `token`: every earlier session of the user ends), or with a password reset link's token " +
          '(then spent; every session ends); or staff: Suspend / Enable (active) and profile fields of a user ' +
          '(admins: superadmins only)',
        security: [{ session: [] }],
        params: objectIdParam,
        body: Type.Object(
          {
            password: Type.Optional(Type.String({ maxLength: 200 })),
            currentPassword: Type.Optional(Type.String({ maxLength: 200 })),
            ...UserChangeFields,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Union([
            Type.Object({ result: Type.Object({ message: Type.String(), token: Type.String() }) }),
            MessageResult,
            Type.Object({ result: UserView }),
          ]),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { password, currentPassword, ...changes } = request.body;
      if (password === undefined) {
        if (Object.keys(changes).length === 0) throw badRequest(MESSAGES.nothingToChange);
        if (isResetToken(app, bearerToken(request) ?? '')) throw unauthorized(RESET_LINK_INVALID);
        if (!hasRole(request.user, 'staff')) throw forbidden(AUTH_MESSAGES.forbidden);
        const user = await changeUser(ctx, request.user, id, changes as UserChanges, request.id);
        return { result: publicUser(user) };
      }
      if (Object.keys(changes).length > 0) throw badRequest(MESSAGES.passwordAlone);
      const problem = passwordProblem(password);
      const token = bearerToken(request) ?? '';

      if (isResetToken(app, token)) {
        const user = await usableResetUser(ctx, token);
        if (user._id.toString() !== id) throw unauthorized(RESET_LINK_INVALID);
        if (problem) throw badRequest(problem);
        const ended = endSessions(user, 'password-reset', request.id);
        // The new hash, the spent link and the ended sessions in one write, conditional on the link
        // still pending: of two requests racing with the same link, only one changes the password.
        const spent = await ctx.users.updateOne(
          { _id: user._id, active: true, 'passwordReset.jtiHash': user.passwordReset?.jtiHash },
          {
            $set: {
              passwordHash: await hashPassword(password),
              passwordReset: null,
              sessionVersion: ended.sessionVersion,
            },
            $push: { outbox: ended.event },
          },
        );
        if (spent.modifiedCount !== 1) throw unauthorized(RESET_LINK_INVALID);
        await ctx.eventsPublished();
        return { result: { message: PASSWORD_UPDATED } };
      }

      if (request.user.id !== id) {
        throw hasRole(request.user, 'staff') ? forbidden(AUTH_MESSAGES.forbidden) : notFound(USER_NOT_FOUND);
      }
      if (problem) throw badRequest(problem);
      if (!currentPassword) throw badRequest(CURRENT_PASSWORD_REQUIRED);
      const user = await ctx.users.findOne({ _id: id, active: true, deletedAt: null });
      if (!user) throw notFound(USER_NOT_FOUND);
      if (!(await verifyPassword(currentPassword, user.passwordHash)))
        throw forbidden(CURRENT_PASSWORD_WRONG);
      const ended = endSessions(user, 'password-changed', request.id);
      // A changed password also spends any reset link still pending and ends every other session;
      // conditional on the hash just checked, so two changes racing cannot both pass.
      const changed = await ctx.users.updateOne(
        { _id: id, active: true, passwordHash: user.passwordHash },
        {
          $set: {
            passwordHash: await hashPassword(password),
            passwordReset: null,
            sessionVersion: ended.sessionVersion,
          },
          $push: { outbox: ended.event },
        },
      );
      if (changed.matchedCount !== 1) throw forbidden(CURRENT_PASSWORD_WRONG);
      await ctx.eventsPublished();
      // This session goes on with a token of the new version.
      const fresh = app.signToken(
        { id, permissions: user.permissions, email: user.email },
        { sessionVersion: ended.sessionVersion },
      );
      reply.header('token', fresh);
      return { result: { message: PASSWORD_UPDATED, token: fresh } };
    },
  );
}
