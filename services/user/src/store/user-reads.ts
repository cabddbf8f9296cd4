import { verifyResetToken } from '@decor/kit';
import type { UserContext } from '../context';
import { resetIsUsable } from '../domain/password-reset';
import { type Refused, refuse } from '../domain/refusals';
import { normaliseEmail } from '../domain/user';
import type { User } from './user-model';

/** A live (not deleted) user as stored. */
export const liveUser = (ctx: UserContext, id: string) =>
  ctx.users.findOne({ _id: id, deletedAt: null }).lean<User>();

/** The account an e-mail signs in to (a deleted one's e-mail was freed). */
export const accountByEmail = (ctx: UserContext, email: string) =>
  ctx.users.findOne({ email: normaliseEmail(email) });

/** The live account of an e-mail, for staff (the welcome e-mail). */
export const liveAccountByEmail = (ctx: UserContext, email: string) =>
  ctx.users.findOne({ email: normaliseEmail(email), deletedAt: null });

/**
 * The account a reset e-mail goes to (only an active one): just what the e-mail names. Not the whole
 * document: its outbox may hold up to 100 pending events, and hydrating them on every reset request
 * was most of the request's cost while a busy account's events waited to be sent.
 */
export const activeAccountByEmail = (ctx: UserContext, email: string) =>
  // Straight through the driver (a read of stored fields, nothing to cast): the reset path's read.
  ctx.users.collection.findOne<Pick<User, '_id' | 'email' | 'firstName' | 'lastName' | 'displayName'>>(
    { email: normaliseEmail(email), active: true },
    { projection: { _id: 1, email: 1, firstName: 1, lastName: 1, displayName: 1 } },
  );

/** The session's user (a deleted one is inactive). */
export const sessionAccount = (ctx: UserContext, id: string) => ctx.users.findById(id);

/** The session's user, if not deleted. */
export const liveAccount = (ctx: UserContext, id: string) => ctx.users.findOne({ _id: id, deletedAt: null });

/** The session's user, if active and not deleted (a password change). */
export const activeAccount = (ctx: UserContext, id: string) =>
  ctx.users.findOne({ _id: id, active: true, deletedAt: null });

/** A customer's active cart, as the cart service's events left it. */
export const activeCartOf = (ctx: UserContext, userId: string) => ctx.activeCarts.findById(userId).lean();

/** The user a reset token belongs to, if the token is genuine, current and unspent. */
export async function usableResetUser(ctx: UserContext, token: string | undefined) {
  let claims: { sub: string; jti: string };
  try {
    claims = verifyResetToken(ctx.config.JWT_SECRET, token ?? '');
  } catch {
    return refuse('resetLinkInvalid');
  }
  if (!/^[a-f0-9]{24}$/.test(claims.sub)) return refuse('resetLinkInvalid');
  const user = await ctx.users.findById(claims.sub);
  if (!user?.active || !resetIsUsable(user.passwordReset, claims.jti, new Date())) {
    return refuse('resetLinkInvalid');
  }
  return user;
}
export type ResetUser = Exclude<Awaited<ReturnType<typeof usableResetUser>>, Refused>;
