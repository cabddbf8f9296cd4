import { createSigner, createVerifier } from 'fast-jwt';

/**
 * Every token this product signs names its issuer and what it is for (its audience), and every
 * check names the one audience it accepts: a queue-board cookie or a reset link is never a session.
 */
export const JWT_ISSUER = 'decor';
export const AUDIENCES = {
  /** `Authorization: Bearer` sessions (the kit's auth plugin, the gateway). */
  session: 'decor-session',
  /** The queue dashboard's 15-minute cookie (accounting-sync's board only). */
  queueBoard: 'decor-queue-board',
  /** Password reset and welcome set-password links. */
  passwordReset: 'decor-password-reset',
} as const;

/**
 * The development secret this repository once shipped as a default: anyone can sign with it, so a
 * process refuses to start with it outside tests (kit config).
 */
export const PUBLISHED_DEV_JWT_SECRET = 'decor-local-development-secret-not-for-production';

/** fast-jwt only checks `allowedIss`/`allowedAud` when the claim is there: require them. */
export const REQUIRED_CLAIMS = ['iss', 'aud', 'exp'] as const;

export const RESET_PURPOSE = 'password-reset';

export interface ResetLinkClaims {
  sub: string;
  purpose: typeof RESET_PURPOSE;
  /** The reset's id: the user service keeps its hash until the link is spent or replaced. */
  jti: string;
}

/**
 * The token of a reset (or welcome set-password) link. Minted where the e-mail is sent, from the
 * user id and the reset's id in the event, so the link itself never travels in Kafka or Redis.
 */
export function signResetToken(
  secret: string,
  reset: { userId: string; resetId: string; expiresAt: string | Date },
  now = Date.now(),
): string {
  const expiresInMs = Math.max(1_000, new Date(reset.expiresAt).getTime() - now);
  const sign = createSigner({
    key: secret,
    algorithm: 'HS256',
    iss: JWT_ISSUER,
    aud: AUDIENCES.passwordReset,
    expiresIn: expiresInMs,
  });
  const claims: ResetLinkClaims = { sub: reset.userId, purpose: RESET_PURPOSE, jti: reset.resetId };
  return sign(claims);
}

/** The claims of a genuine, unexpired reset link's token; throws otherwise. */
export function verifyResetToken(secret: string, token: string): ResetLinkClaims {
  const verify = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    allowedIss: JWT_ISSUER,
    allowedAud: AUDIENCES.passwordReset,
    requiredClaims: [...REQUIRED_CLAIMS],
  });
  const claims = verify(token) as Partial<ResetLinkClaims>;
  if (claims.purpose !== RESET_PURPOSE || typeof claims.sub !== 'string' || typeof claims.jti !== 'string')
    throw new Error('not a reset link token');
  return claims as ResetLinkClaims;
}
