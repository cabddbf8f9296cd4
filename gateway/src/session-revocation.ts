import { type EventEnvelope, UserDeleted, UserEnabled, UserSuspended } from '@decor/contracts';
import {
  bearerToken,
  createKafka,
  EVENT_HEADERS,
  EXPIRED_HEADER,
  type KitLogger,
  type OwnGroupConsumer,
  startOwnGroupConsumer,
  topicFor,
} from '@decor/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kafka } from 'kafkajs';
import type { GatewayConfig } from './config';

export const REVOKED_MESSAGES = {
  suspended: 'Your account is suspended. Please contact us.',
  deleted: 'This account no longer exists.',
} as const;

const SIGN_IN_PATH = '/api/auth/user';

const WATCHED = new Set<string>([UserSuspended.type, UserEnabled.type, UserDeleted.type]);

interface UserState {
  /** Suspended now, or deleted: every token of the user is refused. */
  blocked: boolean;
  deleted: boolean;
  /** Tokens issued before this (ms) stay refused after an Enable: only new sign-ins work again. */
  revokedBefore: number;
}

/** '12h', '30m', '3600' (seconds), '2d', '1w', '500ms' → ms; undefined when unreadable. */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86_400e3, w: 604_800e3 }[match[2] ?? 's'] as number;
  return Number(match[1]) * unit;
}

export interface SessionRevocationOptions {
  kafka: Kafka;
  /** The full topic name, `<prefix>.user`. */
  topic: string;
  logger: KitLogger;
  /**
   * How far back to read at start: the longest a session token lives (JWT_EXPIRES_IN). Any token
   * still valid was issued within it, so any suspension that can concern it is within it too.
   */
  lookbackMs: number;
  /** Wait before trying again when the topic cannot be read. Default 5 s. */
  retryMs?: number;
}

/**
 * Which users' sessions this gateway instance refuses: suspended and deleted accounts, learnt from
 * the user service's UserSuspended / UserEnabled / UserDeleted events. Every instance must hear every
 * event, so each reads the user topic in a consumer group of its own (`gateway.sessions.<uuid>`,
 * deleted on shutdown: the kit's `startOwnGroupConsumer`), like the catalogue cache invalidation and
 * the order feed.
 *
 * A new instance (or a restart) knows nothing yet, so it starts reading at the topic's position of
 * `now - lookbackMs` (Kafka's offsets by timestamp) rather than at its end: the state of every user
 * whose token may still be valid is rebuilt from there. One user's events share a partition, in
 * order, so the last one read is the user's state.
 *
 * A token is refused while its user is suspended or deleted, and, after an Enable, if it was issued
 * before the suspension (its `iat` is in whole seconds, so a token from the suspension's own second
 * counts as earlier: a sign-in within the same second as the suspension, after an Enable, would have
 * to be repeated a second later). Events of no interest are skipped by their type header, unparsed.
 */
export class SessionRevocations {
  private readonly users = new Map<string, UserState>();
  private readonly listeners = new Set<(userId: string) => void>();
  private readonly reader: OwnGroupConsumer;
  /** Watched events applied (for tests). */
  applied = 0;

  constructor(private readonly opts: SessionRevocationOptions) {
    this.reader = startOwnGroupConsumer({
      name: 'gateway.sessions',
      kafka: opts.kafka,
      topic: opts.topic,
      logger: opts.logger,
      component: 'session-revocation',
      startFrom: async (kafka, topic) => {
        // Where the topic was `lookbackMs` ago (by timestamp), not its end: see the class comment.
        const admin = kafka.admin();
        try {
          await admin.connect();
          return await admin.fetchTopicOffsetsByTimestamp(topic, Date.now() - opts.lookbackMs);
        } finally {
          await admin.disconnect().catch(() => {});
        }
      },
      onMessage: (message) => {
        const type = message.headers?.[EVENT_HEADERS.type]?.toString() ?? '';
        if (!WATCHED.has(type)) return;
        try {
          this.apply(JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope);
        } catch (err) {
          this.reader.log.warn({ err }, 'unreadable user event skipped');
        }
      },
      retryMs: opts.retryMs ?? 5_000,
      logs: {
        unread: 'suspensions are not heard until it can',
        crashed: 'suspensions are not heard until it can',
        readAgain: 'suspensions are heard',
      },
    });
  }

  get isListening(): boolean {
    return this.reader.isListening;
  }

  /** No user is refused (the hook's fast path). */
  get isEmpty(): boolean {
    return this.users.size === 0;
  }

  /** Starts reading; resolves true once the topic is read, false if this attempt failed (it retries). */
  start(): Promise<boolean> {
    return this.reader.start();
  }

  /** Called with the user id whenever a user's sessions become refused (to end their open streams). */
  onRevoked(listener: (userId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Why a token of `userId` issued at `iat` (seconds) is refused, or undefined when it is not. */
  refusal(userId: string, iat: number | undefined): string | undefined {
    const state = this.users.get(userId);
    if (!state) return undefined;
    if (state.deleted) return REVOKED_MESSAGES.deleted;
    if (state.blocked) return REVOKED_MESSAGES.suspended;
    if (typeof iat !== 'number' || iat <= Math.floor(state.revokedBefore / 1000))
      return REVOKED_MESSAGES.suspended;
    return undefined;
  }

  /** Applies one user event (public for unit tests). */
  apply(envelope: Pick<EventEnvelope, 'type' | 'payload' | 'occurredAt'>): void {
    if (!WATCHED.has(envelope.type)) return;
    const payload = envelope.payload as { userId?: unknown; at?: unknown } | null;
    if (!payload || typeof payload.userId !== 'string') return;
    const userId = payload.userId;
    const at = Date.parse(typeof payload.at === 'string' ? payload.at : envelope.occurredAt);
    const when = Number.isNaN(at) ? Date.now() : at;
    const before = this.users.get(userId);
    this.applied += 1;
    if (envelope.type === UserEnabled.type) {
      if (before && !before.deleted) this.users.set(userId, { ...before, blocked: false });
      return;
    }
    if (this.applied % 1024 === 0) this.prune();
    const deleted = envelope.type === UserDeleted.type || !!before?.deleted;
    this.users.set(userId, {
      blocked: true,
      deleted,
      revokedBefore: Math.max(when, before?.revokedBefore ?? 0),
    });
    for (const listener of this.listeners) listener(userId);
  }

  /**
   * Forgets users refused since longer than a token lives: every token issued before that has expired,
   * and a suspended or deleted account gets no new one (sign-in refuses it), so nothing is left to refuse.
   */
  prune(now = Date.now()): void {
    const oldest = now - this.opts.lookbackMs;
    for (const [userId, state] of this.users) if (state.revokedBefore < oldest) this.users.delete(userId);
  }

  /**
   * Stops reading. It does not wait more than 2 s for an attempt against a Kafka out of reach (a join
   * that completes after this sees it was stopped and leaves again).
   */
  stop(): Promise<void> {
    return this.reader.stop();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Suspended and deleted users' sessions (src/session-revocation.ts). */
    sessionRevocations: SessionRevocations;
  }
}

/**
 * Refuses, on every /api request (proxied or the gateway's own, such as the order streams), a
 * session token whose user is suspended or deleted: 401 with the reason and `expiredtoken: true`
 * (the session is over: the spec's client drops it). The token is only decoded here: refusing
 * never depends on its signature, and accepting is still up to the usual checks after this hook.
 * Reading starts with `start()` (the gateway calls it last).
 */
export function registerSessionRevocation(
  app: FastifyInstance,
  config: Pick<GatewayConfig, 'KAFKA_BROKERS' | 'KAFKA_TOPIC_PREFIX' | 'JWT_EXPIRES_IN'>,
): SessionRevocations {
  const logger = app.log as KitLogger;
  const kafka = createKafka({
    clientId: 'gateway-sessions',
    brokers: [...config.KAFKA_BROKERS],
    logger,
    config: { connectionTimeout: 3_000, retry: { retries: 2, initialRetryTime: 300 } },
  });
  const revocations = new SessionRevocations({
    kafka,
    topic: topicFor(config.KAFKA_TOPIC_PREFIX, 'user'),
    logger,
    // A minute more than a token lives: clocks differ a little between machines.
    lookbackMs: (durationMs(config.JWT_EXPIRES_IN) ?? 7 * 86_400_000) + 60_000,
  });
  app.decorate('sessionRevocations', revocations);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (revocations.isEmpty || !request.url.startsWith('/api/')) return;
    // Signing in again must work whatever stale token the client still sends along (the user
    // service itself refuses a suspended account's sign-in, with its own 403).
    if (request.url.split('?', 1)[0] === SIGN_IN_PATH) return;
    const token = bearerToken(request);
    if (!token) return;
    let claims: { sub?: unknown; iat?: unknown } | null = null;
    try {
      claims = app.jwt.decode<{ sub?: unknown; iat?: unknown }>(token);
    } catch {
      return; // not a token at all: the usual checks answer
    }
    if (!claims || typeof claims.sub !== 'string') return;
    const refused = revocations.refusal(claims.sub, typeof claims.iat === 'number' ? claims.iat : undefined);
    if (refused) return reply.code(401).header(EXPIRED_HEADER, 'true').send({ message: refused });
  });
  app.addHook('onClose', () => revocations.stop());
  return revocations;
}
