import { createHash, randomUUID } from 'node:crypto';
import { MESSAGES } from './refusals';

/**
 * A reset link carries a JWT with purpose 'password-reset' and the reset audience (so the spec's
 * client can send it as its Bearer token; no session route accepts it) whose `jti` is remembered,
 * hashed, on the user until it is spent or replaced. The notification service mints it from the
 * event's `resetId` (the kit's signResetToken); this service only checks it.
 */
export { RESET_PURPOSE } from '@decor/kit';
export const RESET_TTL_SECONDS = 60 * 60;
/** The welcome e-mail's set-password link is a reset link that lasts a week. */
export const WELCOME_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;
export const RESET_LINK_INVALID = MESSAGES.resetLinkInvalid;

export interface PendingReset {
  jtiHash: string;
  expiresAt: Date;
}

export function newReset(
  now: Date,
  ttlSeconds: number = RESET_TTL_SECONDS,
): { jti: string; pending: PendingReset } {
  const jti = randomUUID();
  return {
    jti,
    pending: { jtiHash: hashJti(jti), expiresAt: new Date(now.getTime() + ttlSeconds * 1000) },
  };
}

export function hashJti(jti: string): string {
  return createHash('sha256').update(jti).digest('hex');
}

/** True when the presented token is the user's current, unspent and unexpired reset. */
export function resetIsUsable(pending: PendingReset | null | undefined, jti: string, now: Date): boolean {
  return !!pending && pending.jtiHash === hashJti(jti) && pending.expiresAt.getTime() > now.getTime();
}
