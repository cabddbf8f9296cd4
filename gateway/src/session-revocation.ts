import { SESSION_MESSAGES } from '@decor/contracts';
import {
  AUDIENCES,
  bearerToken,
  createKafka,
  EXPIRED_HEADER,
  type KitLogger,
  SESSIONS_WAIT_MS,
  type SessionVersions,
  sessionVersionsFor,
} from '@decor/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config';

const SIGN_IN_PATH = '/api/auth/user';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ended sessions: suspended and deleted users, older session versions (the kit's SessionVersions). */
    sessionRevocations: SessionVersions;
  }
  interface FastifyRequest {
    /** What is left of SESSIONS_WAIT_MS once this gateway held the request (passed on to the service). */
    sessionsWaitLeftMs: number;
  }
}

/**
 * Refuses, on every /api request (proxied or the gateway's own, such as the order streams), a
 * session token that has ended (its user suspended or deleted, or its session version older than the
 * user's: a password change or reset, a sign-out): 401 with the reason and `expiredtoken: true`
 * (the session is over: the spec's client drops it). The token is only decoded here: refusing
 * never depends on its signature, and accepting is still up to the usual checks after this hook.
 * Until every ended session is known (just started: its memory is empty; Kafka unreadable), a
 * session token waits up to SESSIONS_WAIT_MS for them, then answers 503 — never accepted unchecked;
 * anonymous requests and signing in go on, and `/readyz` says not ready meanwhile. A service behind
 * waits only what is left of it (the kit's SESSIONS_WAIT_LEFT_HEADER, which the proxy sets).
 * Reading starts with `start()` (the gateway calls it last).
 */
export function registerSessionRevocation(
  app: FastifyInstance,
  config: Pick<GatewayConfig, 'KAFKA_BROKERS' | 'KAFKA_TOPIC_PREFIX' | 'JWT_EXPIRES_IN'>,
): SessionVersions {
  const logger = app.log as KitLogger;
  const kafka = createKafka({
    clientId: 'gateway-sessions',
    brokers: [...config.KAFKA_BROKERS],
    logger,
    config: { connectionTimeout: 3_000, retry: { retries: 2, initialRetryTime: 300 } },
  });
  // The same projection every service's auth hooks use (the kit), in a group of this instance's own.
  const revocations = sessionVersionsFor(kafka, config, 'gateway', logger);
  app.decorate('sessionRevocations', revocations);
  app.decorateRequest('sessionsWaitLeftMs', SESSIONS_WAIT_MS);
  app.addReadinessCheck('sessions', () => {
    if (!revocations.caughtUp) throw new Error('ended sessions not read yet (user topic)');
  });
  // Not async: it runs on every request, and answers nothing on almost all of them.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (revocations.caughtUp && revocations.isEmpty) return done();
    const session = sessionOf(request);
    if (!session) return done();
    const answer = () => {
      const refused = revocations.refusal(session.sub, session.sv);
      if (refused) reply.code(401).header(EXPIRED_HEADER, 'true').send({ message: refused });
      else done();
    };
    if (revocations.caughtUp) return answer();
    // Only a genuine token is worth holding a request for: a forged one gets its 401 at once.
    if (!genuine(request)) return done();
    const heldAt = Date.now();
    void revocations.whenCaughtUp(SESSIONS_WAIT_MS).then((known) => {
      if (known) {
        request.sessionsWaitLeftMs = Math.max(0, SESSIONS_WAIT_MS - (Date.now() - heldAt));
        return answer();
      }
      reply.code(503).header('retry-after', '5').send({ message: SESSION_MESSAGES.unchecked });
    });
  });
  /** Whether the request's token carries the installation's signature (checked only while reading). */
  const genuine = (request: FastifyRequest): boolean => {
    try {
      app.jwt.verify(bearerToken(request) ?? '');
      return true;
    } catch {
      return false;
    }
  };
  /** The user and session version of the session token an /api request carries, if any. */
  const sessionOf = (request: FastifyRequest): { sub: string; sv?: unknown } | undefined => {
    if (!request.url.startsWith('/api/')) return undefined;
    // Signing in again must work whatever stale token the client still sends along (the user
    // service itself refuses a suspended account's sign-in, with its own 403).
    if (request.url.split('?', 1)[0] === SIGN_IN_PATH) return undefined;
    const token = bearerToken(request);
    if (!token) return undefined;
    // A session verified before needs no decoding (its audience is the session's).
    const remembered = app.verifiedSession(token);
    if (remembered) return remembered;
    let claims: { sub?: unknown; sv?: unknown; aud?: unknown; exp?: unknown } | null = null;
    try {
      claims = app.jwt.decode<{ sub?: unknown; sv?: unknown; aud?: unknown; exp?: unknown }>(token);
    } catch {
      return undefined; // not a token at all: the usual checks answer
    }
    if (!claims || typeof claims.sub !== 'string') return undefined;
    // Only sessions have versions: a set-password link (its own audience, one use, checked by the
    // user service) still opens after a suspension and re-enabling bumped the user's version.
    if (claims.aud !== AUDIENCES.session) return undefined;
    // Expired: no session to check (the usual checks answer 401), even before the topic is read.
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) return undefined;
    return { sub: claims.sub, sv: claims.sv };
  };
  app.addHook('onClose', () => revocations.stop());
  return revocations;
}
