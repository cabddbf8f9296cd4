import { updateOneWithEvents } from '@decor/kit';
import type { UserContext } from '../context';
import { hashPassword, verifyPassword } from '../domain/password';
import { type Refused, refuse } from '../domain/refusals';
import { endSessions } from './sessions';
import { passwordResetRequest } from './user-events';
import type { User } from './user-model';
import { activeAccountByEmail, liveAccount, type ResetUser } from './user-reads';

/**
 * Passwords and sessions: each a single write of the user's document with its event in its outbox.
 * Ending sessions raises the user's session version with SessionsRevoked (store/sessions.ts).
 */

/** A reset e-mail for the active account of `email`, if there is one: the pending reset and its event. */
export async function requestPasswordReset(ctx: UserContext, email: string, correlationId: string) {
  const user = await activeAccountByEmail(ctx, email);
  if (!user) return;
  const { pending, event } = passwordResetRequest(user, correlationId);
  // One document write: the pending reset and its event are saved together or not at all; only while
  // the account still has this address and is active (a change meanwhile spent links, this one too).
  // Straight through the driver (both values are as stored): the hot write of the reset path.
  await updateOneWithEvents(
    ctx.users.collection,
    { _id: user._id, email: user.email, active: true },
    { $set: { passwordReset: pending, updatedAt: new Date() }, $push: { outbox: event } },
  );
  // The relay claims this document alone (no scan of every collection).
  ctx.eventsWritten(user._id);
}

/** Signs the user out everywhere: every session so far ends (none when the account is gone). */
export async function signOut(ctx: UserContext, userId: string, correlationId: string) {
  const user = await liveAccount(ctx, userId);
  if (!user) return;
  const ended = endSessions(user, 'signed-out', correlationId);
  await ctx.users.updateOne(
    { _id: user._id },
    { $set: { sessionVersion: ended.sessionVersion }, $push: { outbox: ended.event } },
  );
  await ctx.eventsPublished();
}

/**
 * Sets the password from a reset link: the new hash, the spent link and the ended sessions in one
 * write, conditional on the link still pending: of two requests racing with the same link, only one
 * changes the password.
 */
export async function setPasswordWithReset(
  ctx: UserContext,
  user: ResetUser,
  password: string,
  correlationId: string,
): Promise<Refused | undefined> {
  const ended = endSessions(user, 'password-reset', correlationId);
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
  if (spent.modifiedCount !== 1) return refuse('resetLinkInvalid');
  await ctx.eventsPublished();
  return undefined;
}

/**
 * One's own password change: the current one checked (counted in `user_password_checks_total`), then
 * the new hash in one write that also spends any pending reset link and ends every session;
 * conditional on the hash just checked, so two changes racing cannot both pass. `user`: the active
 * account as just read (`activeAccount`). Answers the new session version (the caller's session goes on).
 */
export async function changeOwnPassword(
  ctx: UserContext,
  user: User,
  currentPassword: string,
  password: string,
  correlationId: string,
): Promise<{ user: User; sessionVersion: number } | Refused> {
  ctx.passwordChecks.inc({ purpose: 'password-change' });
  if (!(await verifyPassword(currentPassword, user.passwordHash))) return refuse('currentPasswordWrong');
  const ended = endSessions(user, 'password-changed', correlationId);
  const changed = await ctx.users.updateOne(
    { _id: user._id, active: true, deletedAt: null, passwordHash: user.passwordHash },
    {
      $set: {
        passwordHash: await hashPassword(password),
        passwordReset: null,
        sessionVersion: ended.sessionVersion,
      },
      $push: { outbox: ended.event },
    },
  );
  if (changed.matchedCount !== 1) return refuse('currentPasswordWrong');
  await ctx.eventsPublished();
  return { user, sessionVersion: ended.sessionVersion };
}
