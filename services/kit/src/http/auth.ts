import {
  type AccessRole,
  hasAccess,
  isPermission,
  type Permission,
  SESSION_MESSAGES,
} from '@decor/contracts';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, HttpError, unauthorized } from './errors';
import { AUDIENCES, JWT_ISSUER, REQUIRED_CLAIMS } from './tokens';
import { VerifiedTokens } from './verified-tokens';

/** Permission strings of the spec (roles in @decor/contracts). */
export type Permissions = Permission;
export type Role = AccessRole;

/** What the session token carries (the JWT claims). */
export interface TokenClaims {
  sub: string;
  permissions: Permissions;
  email: string;
  /** The user's session version at sign-in: refused once the user's version moved on. */
  sv?: number;
}

/** The signed-in user as handlers see it on `request.user`. */
export interface SessionUser {
  id: string;
  permissions: Permissions;
  email: string;
  /** The token's session version (`sv`), for what is derived from the session (stream tickets). */
  sessionVersion?: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: SessionUser;
  }
}

export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless a valid session token is presented; sets `request.user`. */
    authenticate: AuthHook;
    /** preHandler: like `authenticate`, but a request without a token goes on anonymously. */
    optionalAuth: AuthHook;
    /** preHandler: authenticates, then 403 unless the user has one of the roles. */
    requireRole(...roles: Role[]): AuthHook;
    /**
     * The claims of a session token this process verified recently (with `verifyCacheSize`), without
     * checking it again; undefined when it is not remembered (never verified, refused, or expired).
     */
    verifiedSession(token: string): TokenClaims | undefined;
    /**
     * Signs a session token for the user (expiry from config unless given; `expiresIn` is a duration
     * text such as '15m': a bare number would be read as seconds). `audience` other than the session's
     * makes a token no session route accepts (e.g. the queue board's).
     */
    signToken(
      user: SessionUser,
      options?: { expiresIn?: string; sessionVersion?: number; audience?: string },
    ): string;
  }
}

export interface AuthOptions {
  /** Shared by the gateway and every service, so a service reached directly still refuses a forged token. */
  secret: string;
  /** e.g. '12h' */
  expiresIn: string;
  /**
   * Remember up to this many verified tokens (./verified-tokens.ts, keyed by the token string): a
   * token seen again skips decoding and the signature check until its own expiry (10 min at most).
   * Refusals are not remembered. For the gateway, which checks the same sessions on every request.
   */
  verifyCacheSize?: number;
  /** Ended sessions (the kit's SessionVersions, from the user topic): refused with their reason. */
  sessions?: SessionCheck;
}

/** Why a verified token of `userId` with session version `sv` is refused, or undefined. */
export interface SessionCheck {
  refusal(userId: string, sv: unknown): string | undefined;
  /** false while the ended sessions are not all known yet (just started): tokens then answer 503. */
  readonly caughtUp?: boolean;
  /** Resolves whether it caught up within `timeoutMs`. */
  whenCaughtUp?(timeoutMs: number): Promise<boolean>;
}

/**
 * A token arriving before the ended sessions are known waits this long for them (a process just
 * started reads them in well under a second), then answers 503: never accepted unchecked.
 */
export const SESSIONS_WAIT_MS = 2_000;

/**
 * What the gateway left of SESSIONS_WAIT_MS after holding a request for its own ended sessions, in ms:
 * a request proxied through it waits once in all, not once per hop (a just-restarted gateway and
 * service each waiting 2 s put an answer past the 5 s every request is owed). The gateway always sets
 * it; a value above SESSIONS_WAIT_MS, or none, counts as the whole wait. A caller setting it only
 * shortens its own wait for a 503.
 */
export const SESSIONS_WAIT_LEFT_HEADER = 'x-sessions-wait-left-ms';

/** How long this request's session token may wait for the ended sessions (SESSIONS_WAIT_LEFT_HEADER). */
export function sessionsWaitLeft(request: Pick<FastifyRequest, 'headers'>): number {
  const raw = request.headers[SESSIONS_WAIT_LEFT_HEADER];
  const left = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : SESSIONS_WAIT_MS;
  return Math.min(left, SESSIONS_WAIT_MS);
}

/**
 * 503 for a session token while ended sessions cannot be told apart from live ones; the request's
 * wait (sessionsWaitLeft) is read only then, off the path of every request once caught up.
 */
export async function sessionsKnown(
  sessions: SessionCheck | undefined,
  request: Pick<FastifyRequest, 'headers'>,
) {
  if (sessions?.caughtUp !== false) return;
  if (await sessions.whenCaughtUp?.(sessionsWaitLeft(request))) return;
  throw new HttpError(503, SESSION_MESSAGES.unchecked, { 'retry-after': '5' });
}

export const AUTH_MESSAGES = {
  missing: 'Authentication required',
  invalid: 'Invalid session token',
  expired: 'Your session has expired',
  forbidden: 'You are not allowed to do this',
} as const;

/** The spec's clients treat an error carrying `expiredtoken: true` as an expired session. */
export const EXPIRED_HEADER = 'expiredtoken';

export function hasRole(user: SessionUser, role: Role): boolean {
  return hasAccess(user.permissions, role);
}

/** On `optionalAuth` routes: the signed-in user, or null for an anonymous visitor. */
export function currentUser(request: FastifyRequest): SessionUser | null {
  return (request.user as SessionUser | null | undefined) ?? null;
}

function isClaims(value: unknown): value is TokenClaims {
  const c = value as Partial<TokenClaims> | null;
  return !!c && typeof c.sub === 'string' && typeof c.email === 'string' && isPermission(c.permissions);
}

/**
 * The session token from `Authorization: Bearer <token>`. A browser client with no session sends
 * "Bearer null"/"Bearer undefined" straight from session storage: that is "no token", not a forgery.
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  const token = match?.[1];
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}

function toAuthError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if ((err as { code?: string }).code === 'FAST_JWT_EXPIRED') {
    return unauthorized(AUTH_MESSAGES.expired, { [EXPIRED_HEADER]: 'true' });
  }
  // Forged, malformed, wrong algorithm, not yet valid: all the same to the client.
  return unauthorized(AUTH_MESSAGES.invalid);
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthOptions) => {
    if (!opts.secret) throw new Error('authPlugin needs a JWT secret');
    await app.register(fastifyJwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.expiresIn, iss: JWT_ISSUER, aud: AUDIENCES.session },
      verify: {
        algorithms: ['HS256'],
        allowedIss: JWT_ISSUER,
        allowedAud: AUDIENCES.session,
        requiredClaims: [...REQUIRED_CLAIMS],
      },
    });
    const verified = opts.verifyCacheSize
      ? new VerifiedTokens<TokenClaims & { exp?: number }>(opts.verifyCacheSize)
      : undefined;

    const verify = async (request: FastifyRequest, token: string) => {
      let claims = verified?.get(token);
      if (!claims) {
        let decoded: unknown;
        try {
          decoded = app.jwt.verify<object>(token);
        } catch (err) {
          throw toAuthError(err);
        }
        // A validly signed token with the wrong claims is refused too; handlers see the tidy shape.
        if (!isClaims(decoded)) throw unauthorized(AUTH_MESSAGES.invalid);
        claims = decoded;
        verified?.set(token, claims);
      }
      // After the signature (a forgery is a 401 whatever else), before anything is accepted.
      await sessionsKnown(opts.sessions, request);
      const ended = opts.sessions?.refusal(claims.sub, claims.sv);
      if (ended) throw unauthorized(ended, { [EXPIRED_HEADER]: 'true' });
      request.user = {
        id: claims.sub,
        permissions: claims.permissions,
        email: claims.email,
        ...(typeof claims.sv === 'number' ? { sessionVersion: claims.sv } : {}),
      };
    };

    const authenticate: AuthHook = async (request) => {
      const token = bearerToken(request);
      if (!token) throw unauthorized(AUTH_MESSAGES.missing);
      await verify(request, token);
    };

    app.decorate('verifiedSession', (token: string) => verified?.get(token));
    app.decorate('authenticate', authenticate);
    app.decorate('optionalAuth', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (token) await verify(request, token);
    });
    app.decorate('requireRole', (...roles: Role[]): AuthHook => {
      if (roles.length === 0) throw new Error('requireRole needs at least one role');
      return async (request, reply) => {
        if (!currentUser(request)) await authenticate(request, reply);
        if (!roles.some((role) => hasRole(request.user, role))) throw forbidden(AUTH_MESSAGES.forbidden);
      };
    });
    app.decorate(
      'signToken',
      (user: SessionUser, options?: { expiresIn?: string; sessionVersion?: number; audience?: string }) =>
        app.jwt.sign(
          {
            sub: user.id,
            permissions: user.permissions,
            email: user.email,
            sv: options?.sessionVersion ?? 0,
          },
          // No options: the plugin's ready-made signer (options build a new one each call).
          options?.expiresIn === undefined && options?.audience === undefined
            ? undefined
            : {
                ...(options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn }),
                ...(options.audience === undefined ? {} : { aud: options.audience }),
              },
        ),
    );
  },
  { name: 'decor-auth' },
);
