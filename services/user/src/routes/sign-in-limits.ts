import {
  type AttemptLimit,
  attemptLimit,
  minutesFrom,
  type RequestLimit,
  registerRateLimitStore,
  requestLimit,
  type ServiceApp,
} from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserContext } from '../context';
import { normaliseEmail } from '../domain/user';

export interface SignInLimits {
  /**
   * Failed password checks per account (its normalised e-mail): what stops guessing a password (3
   * characters suffice by the spec). Sign-in and the profile's `currentPassword` share it; each check
   * takes an attempt before it runs and gives it back when the password was right.
   */
  signInFailures: AttemptLimit;
  /** Reset e-mails per address, so nobody's inbox can be flooded. */
  resets: RequestLimit;
}

/**
 * Limits per account, decided here where sign-in is decided, so this port is limited as much as the
 * gateway; counted in Redis, so every instance shares them. Keyed by the e-mail whether or not it has
 * an account: a limited address tells nothing about which do. The gateway limits per client ip.
 */
export async function signInLimits(app: ServiceApp, ctx: UserContext): Promise<SignInLimits> {
  const { config } = ctx;
  await registerRateLimitStore(app, { redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX });
  const email = (request: FastifyRequest) => {
    const value = (request.body as { email?: unknown } | undefined)?.email;
    return typeof value === 'string' ? normaliseEmail(value) : undefined;
  };
  return {
    signInFailures: attemptLimit(app, {
      name: 'account:sign-in-failures',
      max: config.SIGN_IN_FAILURES_PER_ACCOUNT,
      windowMs: config.SIGN_IN_FAILURE_WINDOW_MINUTES * 60_000,
      message: (s) => `Too many failed sign-ins for this account, please try again in ${minutesFrom(s)}`,
    }),
    resets: requestLimit(app, {
      name: 'account:reset',
      max: config.RESETS_PER_ACCOUNT_PER_HOUR,
      windowMs: 3_600_000,
      key: email,
      message: (s) => `Too many reset requests for this e-mail, please try again in ${minutesFrom(s)}`,
    }),
  };
}

/**
 * Runs a password check on one of the account's attempts (`key`: its normalised e-mail): taken before
 * the check runs, so parallel guesses cannot all get one; given back unless `wrong(outcome)` (or the
 * check threw before deciding). `limited`: no attempt was left, the 429 is sent (answer `reply`).
 */
export async function onAttempt<T>(
  limit: AttemptLimit,
  key: string,
  request: FastifyRequest,
  reply: FastifyReply,
  check: () => Promise<T>,
  wrong: (outcome: T) => boolean,
): Promise<{ limited: true } | { outcome: T }> {
  if (!(await limit.take(key, request, reply))) return { limited: true };
  let failed = false;
  try {
    const outcome = await check();
    failed = wrong(outcome);
    return { outcome };
  } finally {
    if (!failed) await limit.giveBack(key, request);
  }
}
