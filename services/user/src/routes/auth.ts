import { forbidden, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import { verifyPassword } from '../domain/password';
import { normaliseEmail } from '../domain/user';
import { sessionCart } from '../events/cart-events';
import { endSessions } from '../store/sessions';
import { publicUser } from '../store/user-model';
import { Email, MessageResult, SessionUserView, UserView } from './schemas';
import type { SignInLimits } from './sign-in-limits';

/** Spec §8: the same answer for an unknown e-mail and a wrong password. */
export const INCORRECT_LOGIN = 'Incorrect username or password';
export const ACCOUNT_SUSPENDED = 'Your account is suspended. Please contact us.';
export const SIGNED_OUT = 'Signed out';

export async function authRoutes(app: ServiceApp, ctx: UserContext, limits: SignInLimits): Promise<void> {
  app.post(
    '/auth/user',
    {
      preHandler: limits.signInFailures.check,
      schema: {
        summary:
          'Sign in with e-mail and password; the session token comes in the `token` header and the body',
        body: Type.Object(
          { email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            result: Type.Object({
              token: Type.String(),
              permissions: Type.String(),
              redirecturl: Type.Optional(Type.String()),
              user: UserView,
            }),
          }),
        },
      },
    },
    async (request, reply) => {
      const user = await ctx.users.findOne({ email: normaliseEmail(request.body.email) });
      const passwordOk = await verifyPassword(request.body.password, user?.passwordHash);
      if (!user || !passwordOk) {
        await limits.signInFailures.add(request);
        throw forbidden(INCORRECT_LOGIN);
      }
      if (!user.active) throw forbidden(ACCOUNT_SUSPENDED);
      const token = app.signToken(
        { id: user._id.toString(), permissions: user.permissions, email: user.email },
        { sessionVersion: user.sessionVersion ?? 0 },
      );
      const redirecturl = await ctx.accountingSignInUrl(user);
      reply.header('token', token);
      return {
        result: {
          token,
          permissions: user.permissions,
          user: publicUser(user),
          ...(redirecturl ? { redirecturl } : {}),
        },
      };
    },
  );

  app.post(
    '/auth/logout',
    {
      preHandler: app.authenticate,
      schema: {
        summary:
          'Sign out: every session of the user ends (on every device), at the gateway and every service',
        security: [{ session: [] }],
        response: { 200: MessageResult },
      },
    },
    async (request) => {
      const user = await ctx.users.findOne({ _id: request.user.id, deletedAt: null });
      if (user) {
        const ended = endSessions(user, 'signed-out', request.id);
        await ctx.users.updateOne(
          { _id: user._id },
          { $set: { sessionVersion: ended.sessionVersion }, $push: { outbox: ended.event } },
        );
        await ctx.eventsPublished();
      }
      return { result: { message: SIGNED_OUT } };
    },
  );

  app.get(
    '/auth/jwt',
    {
      preHandler: app.authenticate,
      schema: {
        summary:
          "The signed-in user (validates the session token); a customer's active cart comes as `cart`, " +
          'kept from cart events (it may lag a change by milliseconds)',
        security: [{ session: [] }],
        response: { 200: Type.Object({ result: SessionUserView }) },
      },
    },
    async (request) => {
      const user = await ctx.users.findById(request.user.id);
      if (!user?.active) throw notFound('User not found');
      if (user.permissions !== 'customer') return { result: publicUser(user) };
      const cart = await ctx.activeCarts.findById(user._id.toString()).lean();
      return { result: { ...publicUser(user), cart: sessionCart(cart) } };
    },
  );
}
