import { PasswordResetRequested } from '@decor/contracts';
import { bearerToken, newEvent, type ServiceApp, unauthorized, verifyResetToken } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import { newReset, RESET_LINK_INVALID, resetIsUsable } from '../domain/password-reset';
import { displayName, normaliseEmail } from '../domain/user';
import { Email, MessageResult } from './schemas';
import type { SignInLimits } from './sign-in-limits';

/** Spec §4: a reset request always reports success, whether or not the e-mail has an account. */
export const RESET_REQUESTED =
  'If an account exists for this e-mail, a link to reset the password is on its way';

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
      const now = new Date();
      const { jti, pending } = newReset(now);
      const user = await ctx.users.findOne({ email: normaliseEmail(request.body.email), active: true });
      if (user) {
        const id = user._id.toString();
        const event = newEvent(PasswordResetRequested, {
          aggregateId: id,
          correlationId: request.id,
          payload: {
            userId: id,
            email: user.email,
            displayName: displayName(user),
            // The reset's id, not the link: the notification service mints the link when it sends.
            resetId: jti,
            expiresAt: pending.expiresAt.toISOString(),
          },
        });
        // One document write: the pending reset and its event are saved together or not at all.
        await ctx.users.updateOne(
          { _id: user._id },
          { $set: { passwordReset: pending }, $push: { outbox: event } },
        );
        ctx.eventsWritten(user._id);
      }
      return { result: { message: RESET_REQUESTED } };
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
      const user = await usableResetUser(ctx, bearerToken(request));
      return { result: { email: user.email, id: user._id.toString() } };
    },
  );
}

/** The user a reset token belongs to, if the token is genuine, current and unspent; else 401. */
export async function usableResetUser(ctx: UserContext, token: string | undefined) {
  let claims: { sub: string; jti: string };
  try {
    claims = verifyResetToken(ctx.config.JWT_SECRET, token ?? '');
  } catch {
    throw unauthorized(RESET_LINK_INVALID);
  }
  if (!/^[a-f0-9]{24}$/.test(claims.sub)) throw unauthorized(RESET_LINK_INVALID);
  const user = await ctx.users.findById(claims.sub);
  if (!user?.active || !resetIsUsable(user.passwordReset, claims.jti, new Date())) {
    throw unauthorized(RESET_LINK_INVALID);
  }
  return user;
}
