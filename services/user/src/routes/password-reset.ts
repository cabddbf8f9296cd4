import { bearerToken, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import { MESSAGES } from '../domain/refusals';
import { requestPasswordReset } from '../store/password-writes';
import { usableResetUser } from '../store/user-reads';
import { orRefuse } from './refusals';
import { Email, MessageResult } from './schemas';
import type { SignInLimits } from './sign-in-limits';

export async function passwordResetRoutes(
  app: ServiceApp,
  ctx: UserContext,
  limits: SignInLimits,
): Promise<void> {
  app.post(
    '/send/reset',
    {
      preHandler: limits.resets.count,
      schema: {
        summary: 'E-mail a single-use password reset link (always answers success)',
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: { 200: MessageResult },
      },
    },
    async (request) => {
      await requestPasswordReset(ctx, request.body.email, request.id);
      return { result: { message: MESSAGES.resetRequested } };
    },
  );

  app.get(
    '/auth/resetLink',
    {
      schema: {
        summary: 'Who a password reset link belongs to (the link token is sent as the Bearer token)',
        security: [{ session: [] }],
        response: { 200: Type.Object({ result: Type.Object({ email: Type.String(), id: Type.String() }) }) },
      },
    },
    async (request) => {
      const user = orRefuse(await usableResetUser(ctx, bearerToken(request)));
      return { result: { email: user.email, id: user._id.toString() } };
    },
  );
}
