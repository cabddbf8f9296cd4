import {
  PasswordResetRequested,
  UserDeleted,
  UserEnabled,
  UserSuspended,
  WelcomeEmailRequested,
} from '@decor/contracts';
import { newEvent } from '@decor/kit';
import { newReset, WELCOME_LINK_TTL_SECONDS } from '../domain/password-reset';
import { displayName } from '../domain/user';
import { type User, userDisplayName } from './user-model';

/**
 * The events of a user's writes beyond its whole state (`userUpdatedEvent`): the e-mails with a
 * set-password link and the changes of state. Each is stored in the write it announces.
 */

type Addressee = Pick<User, '_id' | 'email' | 'firstName' | 'lastName' | 'displayName'>;

/**
 * A welcome e-mail for `user`: a fresh set-password link (a reset link that lasts a week, replacing
 * any pending one) and the event the notification service sends it from. The caller stores both in
 * one write (`passwordReset` and the outbox).
 */
export function welcomeRequest(user: Addressee, correlationId: string, now = new Date()) {
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

/** A password reset e-mail for `user`: a pending reset (an hour) and its event, stored in one write. */
export function passwordResetRequest(user: Addressee, correlationId: string, now = new Date()) {
  const id = user._id.toString();
  const { jti, pending } = newReset(now);
  const event = newEvent(PasswordResetRequested, {
    aggregateId: id,
    correlationId,
    payload: {
      userId: id,
      email: user.email,
      displayName: displayName(user),
      // The reset's id, not the link: the notification service mints the link when it sends.
      resetId: jti,
      expiresAt: pending.expiresAt.toISOString(),
    },
  });
  return { pending, event };
}

/** Suspend or Enable. */
export function userStateEvent(
  user: Pick<User, '_id' | 'email' | 'active'>,
  correlationId: string,
  at: string,
) {
  const id = user._id.toString();
  return newEvent(user.active ? UserEnabled : UserSuspended, {
    aggregateId: id,
    correlationId,
    payload: { userId: id, email: user.email, at },
  });
}

export function userDeletedEvent(
  user: Pick<User, '_id' | 'email' | 'permissions' | 'qboId'>,
  correlationId: string,
  at: string,
) {
  const id = user._id.toString();
  return newEvent(UserDeleted, {
    aggregateId: id,
    correlationId,
    payload: {
      userId: id,
      email: user.email,
      permissions: user.permissions,
      at,
      ...(user.qboId ? { qboId: user.qboId } : {}),
    },
  });
}
