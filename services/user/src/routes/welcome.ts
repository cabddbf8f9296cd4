import { WelcomeEmailRequested } from '@decor/contracts';
import { conflict, forbidden, newEvent, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import { MESSAGES, mayManage } from '../domain/admin-rules';
import { newReset, WELCOME_LINK_TTL_SECONDS } from '../domain/password-reset';
import { normaliseEmail } from '../domain/user';
import { type User, userDisplayName } from '../store/user-model';
import { MessageResult } from './schemas';

/**
 * A welcome e-mail for `user`: a fresh set-password link (a reset link that lasts a week, replacing
 * any pending one) and the event the notification service sends it from. The caller stores both in
 * one write (`passwordReset` and the outbox).
 */
export function welcomeRequest(
  user: Pick<User, '_id' | 'email' | 'firstName' | 'lastName' | 'displayName'>,
  correlationId: string,
  now = new Date(),
) {
  const id = user._id.toString();
  const { jti, pending } = newReset(now, WELCOME_LINK_TTL_SECONDS);
  // The event names the reset; the notification service mints the link from it when it sends.
  const event = newEvent(WelcomeEmailRequested, {
    aggregateId: id,
    correlationId,
    payload: {
      userId: id,
      email: user.email,
      displayName: userDisplayName(user),
      resetId: jti,
      expiresAt: pending.expiresAt.toISOString(),
    },
  });
  return { pending, event };
}

export async function welcomeRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  app.post(
    '/send/welcomeEmail',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary:
          'Staff: e-mail the welcome message (with a new link to set a password) to an account again; one e-mail per request',
        security: [{ session: [] }],
        body: Type.Object(
          {
            email: Type.String({
              format: 'email',
              maxLength: 254,
              'x-message': MESSAGES.invalidEmail,
            }),
          },
          { additionalProperties: false },
        ),
        response: { 200: MessageResult },
      },
    },
    async (request) => {
      const user = await ctx.users.findOne({ email: normaliseEmail(request.body.email), deletedAt: null });
      if (!user) throw notFound(MESSAGES.userNotFound);
      // The link sets the account's password: the same rule as every other action on an admin.
      if (!mayManage(request.user.permissions, user.permissions)) throw forbidden(MESSAGES.onlySuperadmin);
      // Its link would not work (a suspended account cannot set a password).
      if (!user.active) throw conflict(MESSAGES.suspendedNoWelcome);
      const { pending, event } = welcomeRequest(user, request.id);
      await ctx.users.updateOne(
        { _id: user._id, deletedAt: null },
        { $set: { passwordReset: pending }, $push: { outbox: event } },
      );
      ctx.eventsWritten();
      return { result: { message: MESSAGES.welcomeSent } };
    },
  );
}
