import { UserView } from '@decor/contracts';
import {
  AUTH_MESSAGES,
  bearerToken,
  forbidden,
  hasRole,
  objectIdParam,
  type ServiceApp,
  unauthorized,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserContext } from '../context';
import { RESET_PURPOSE } from '../domain/password-reset';
import { isRefused, MESSAGES, refuse } from '../domain/refusals';
import { newPasswordRefusal, ownPasswordChangeRefusal } from '../domain/sign-in';
import { normaliseEmail } from '../domain/user';
import { checkUserChange, type UserChanges, userPutKind } from '../domain/user-changes';
import { parentCompany } from '../store/companies';
import { changeOwnPassword, setPasswordWithReset } from '../store/password-writes';
import { publicUser } from '../store/user-model';
import { activeAccount, liveAccount, liveUser, usableResetUser } from '../store/user-reads';
import { changeUser } from '../store/user-writes';
import { orNotFound, orRefuse, refusalError, refuseIf } from './refusals';
import { MessageResult, UserChangeFields } from './schemas';
import { onAttempt, type SignInLimits } from './sign-in-limits';

/** A reset link's token (it has a purpose claim); checked for real by `usableResetUser`. */
function isResetToken(app: ServiceApp, token: string): boolean {
  try {
    return app.jwt.decode<{ purpose?: unknown }>(token)?.purpose === RESET_PURPOSE;
  } catch {
    return false;
  }
}

export async function userRoutes(app: ServiceApp, ctx: UserContext, limits: SignInLimits): Promise<void> {
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
      if (request.user.id !== id && !hasRole(request.user, 'staff'))
        throw refusalError(refuse('userNotFound'));
      return { result: publicUser(orNotFound(await liveAccount(ctx, id), 'userNotFound')) };
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
      const { password, currentPassword, ...fields } = request.body;
      const token = bearerToken(request) ?? '';
      const resetLink = isResetToken(app, token);

      if (orRefuse(userPutKind(password, fields)) === 'change') {
        if (resetLink) throw refusalError(refuse('resetLinkInvalid'));
        if (!hasRole(request.user, 'staff')) throw forbidden(AUTH_MESSAGES.forbidden);
        const target = orNotFound(await liveUser(ctx, id), 'userNotFound');
        const { permissions, active } = target;
        const changes = orRefuse(
          checkUserChange(request.user, { id, permissions, active }, fields as UserChanges),
        );
        if (changes.CompanyId !== undefined) orRefuse(await parentCompany(ctx, changes.CompanyId));
        return { result: publicUser(orRefuse(await changeUser(ctx, id, changes, request.id))) };
      }
      const newPassword = password as string;

      if (resetLink) {
        const user = orRefuse(await usableResetUser(ctx, token));
        if (user._id.toString() !== id) throw refusalError(refuse('resetLinkInvalid'));
        refuseIf(newPasswordRefusal(newPassword));
        refuseIf(await setPasswordWithReset(ctx, user, newPassword, request.id));
        return { result: { message: MESSAGES.passwordUpdated } };
      }

      if (request.user.id !== id) {
        throw hasRole(request.user, 'staff')
          ? forbidden(AUTH_MESSAGES.forbidden)
          : refusalError(refuse('userNotFound'));
      }
      refuseIf(ownPasswordChangeRefusal(newPassword, currentPassword));
      const account = orNotFound(await activeAccount(ctx, id), 'userNotFound');
      // A wrong current password is a guess at it: the account's sign-in attempts pay for it.
      const attempt = await onAttempt(
        limits.signInFailures,
        normaliseEmail(account.email),
        request,
        reply,
        () => changeOwnPassword(ctx, account, currentPassword as string, newPassword, request.id),
        (outcome) => isRefused(outcome) && outcome.refused.code === 'currentPasswordWrong',
      );
      if ('limited' in attempt) return reply;
      const { user, sessionVersion } = orRefuse(attempt.outcome);
      // This session goes on with a token of the new version.
      const fresh = app.signToken(
        { id, permissions: user.permissions, email: user.email },
        { sessionVersion },
      );
      reply.header('token', fresh);
      return { result: { message: MESSAGES.passwordUpdated, token: fresh } };
    },
  );
}
