import type { ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import { verifyPassword } from '../domain/password';
import { isRefused, MESSAGES } from '../domain/refusals';
import { signIn } from '../domain/sign-in';
import { sessionCart } from '../events/cart-events';
import { signOut } from '../store/password-writes';
import { publicUser } from '../store/user-model';
import { accountByEmail, activeCartOf, sessionAccount } from '../store/user-reads';
import { orNotFound, orRefuse } from './refusals';
import { Email, MessageResult, SessionUserView, UserView } from './schemas';
import type { SignInLimits } from './sign-in-limits';

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
      const account = await accountByEmail(ctx, request.body.email);
      const passwordOk = await verifyPassword(request.body.password, account?.passwordHash);
      const outcome = signIn(account, passwordOk);
      if (isRefused(outcome) && outcome.refused.code === 'incorrectLogin')
        await limits.signInFailures.add(request);
      const user = orRefuse(outcome);
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
      await signOut(ctx, request.user.id, request.id);
      return { result: { message: MESSAGES.signedOut } };
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
      const found = await sessionAccount(ctx, request.user.id);
      const user = orNotFound(found?.active ? found : null, 'userNotFound');
      if (user.permissions !== 'customer') return { result: publicUser(user) };
      const cart = await activeCartOf(ctx, user._id.toString());
      return { result: { ...publicUser(user), cart: sessionCart(cart) } };
    },
  );
}
