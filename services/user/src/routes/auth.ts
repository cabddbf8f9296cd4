import { SessionUserView, UserView } from '@decor/contracts';
import type { ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import { verifyPassword } from '../domain/password';
import { isRefused, MESSAGES } from '../domain/refusals';
import { signIn } from '../domain/sign-in';
import { normaliseEmail } from '../domain/user';
import { sessionCart } from '../events/cart-events';
import { signOut } from '../store/password-writes';
import { publicUser } from '../store/user-model';
import { accountByEmail, activeCartOf, sessionAccount } from '../store/user-reads';
import { orNotFound, orRefuse } from './refusals';
import { Email, MessageResult } from './schemas';
import { onAttempt, type SignInLimits } from './sign-in-limits';

/** The account and spec §8's answer for the password; counted in `user_password_checks_total`. */
async function checkSignIn(ctx: UserContext, email: string, password: string) {
  const account = await accountByEmail(ctx, email);
  ctx.passwordChecks.inc({ purpose: 'sign-in' });
  return signIn(account, await verifyPassword(password, account?.passwordHash));
}

export async function authRoutes(app: ServiceApp, ctx: UserContext, limits: SignInLimits): Promise<void> {
  app.post(
    '/auth/user',
    {
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
      // Keyed by the e-mail whether or not it has an account: a limited address tells nothing.
      const key = normaliseEmail(request.body.email);
      const attempt = await onAttempt(
        limits.signInFailures,
        key,
        request,
        reply,
        () => checkSignIn(ctx, request.body.email, request.body.password),
        // A wrong password or an unknown e-mail; not a suspended account's right password.
        (outcome) => isRefused(outcome) && outcome.refused.code === 'incorrectLogin',
      );
      if ('limited' in attempt) return reply;
      const user = orRefuse(attempt.outcome);
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
