import { randomUUID } from 'node:crypto';
import { type EventEnvelope, UserDeleted, UserEnabled, UserSuspended } from '@decor/contracts';
import {
  bearerToken,
  createKafka,
  EVENT_HEADERS,
  EXPIRED_HEADER,
  type KitLogger,
  topicFor,
} from '@decor/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Consumer, Kafka } from 'kafkajs';
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
 * deleted on shutdown), like the catalogue cache invalidation and the order feed.
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
  private readonly groupId = `gateway.sessions.${randomUUID()}`;
  private readonly log: KitLogger;
  private consumer: Consumer | undefined;
  private attempt: Promise<boolean> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private listening = false;
  private joinedOnce = false;
  private failures = 0;
  private stopped = false;
  /** Watched events applied (for tests). */
  applied = 0;

  constructor(private readonly opts: SessionRevocationOptions) {
    this.log = opts.logger.child({
      component: 'session-revocation',
      groupId: this.groupId,
      topic: opts.topic,
    });
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** No user is refused (the hook's fast path). */
  get isEmpty(): boolean {
    return this.users.size === 0;
  }

  /** Starts reading; resolves true once the topic is read, false if this attempt failed (it retries). */
  start(): Promise<boolean> {
    if (!this.attempt) this.attempt = this.join();
    return this.attempt;
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

  private async join(): Promise<boolean> {
    const { kafka, topic } = this.opts;
    const c = kafka.consumer({ groupId: this.groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
    this.consumer = c;
    const admin = kafka.admin();
    try {
      await admin.connect();
      const from = await admin
        .fetchTopicOffsetsByTimestamp(topic, Date.now() - this.opts.lookbackMs)
        .finally(() => admin.disconnect().catch(() => {}));
      if (this.stopped) return false;
      await c.connect();
      await c.subscribe({ topic, fromBeginning: false });
      c.on(c.events.CRASH, ({ payload }) => {
        if (payload.restart || this.stopped) return;
        this.listening = false;
        this.log.error(
          { err: payload.error },
          `stopped reading ${topic}; suspensions are not heard until it can`,
        );
        void c.disconnect().catch(() => {});
        this.scheduleJoin();
      });
      await c.run({
        eachMessage: async ({ message }) => {
          const type = message.headers?.[EVENT_HEADERS.type]?.toString() ?? '';
          if (!WATCHED.has(type)) return;
          try {
            this.apply(JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope);
          } catch (err) {
            this.log.warn({ err }, 'unreadable user event skipped');
          }
        },
      });
      for (const { partition, offset } of from) c.seek({ topic, partition, offset });
      if (this.stopped) {
        await c.disconnect().catch(() => {});
        return false;
      }
      this.listening = true;
      this.joinedOnce = true;
      if (this.failures > 0) this.log.info(`reading ${topic} again: suspensions are heard`);
      this.failures = 0;
      return true;
    } catch (err) {
      this.failures += 1;
      const level = this.failures === 1 ? 'error' : 'warn';
      this.log[level]({ err }, `cannot read ${topic}; suspensions are not heard until it can`);
      await c.disconnect().catch(() => {});
      this.scheduleJoin();
      return false;
    }
  }

  private scheduleJoin(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.attempt = this.join();
    }, this.opts.retryMs ?? 5_000);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // An attempt against a Kafka out of reach may take seconds: shutdown does not wait for all of it
    // (a join that completes after this sees `stopped` and leaves again).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.attempt, new Promise((r) => (timer = setTimeout(r, 2_000)))]);
    clearTimeout(timer);
    this.listening = false;
    await this.consumer?.disconnect().catch(() => {});
    if (!this.joinedOnce) return;
    const admin = this.opts.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([this.groupId]);
    } catch (err) {
      this.log.debug({ err }, 'session group not deleted (Kafka expires empty groups anyway)');
    } finally {
      await admin.disconnect().catch(() => {});
    }
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
