import {
  type EventEnvelope,
  SESSION_MESSAGES,
  SessionsRevoked,
  UserDeleted,
  UserEnabled,
  UserSuspended,
} from '@decor/contracts';
import type { Kafka } from 'kafkajs';
import { EVENT_HEADERS, ensureTopics } from '../messaging/kafka';
import type { KitLogger } from '../messaging/log';
import { type OwnGroupConsumer, startOwnGroupConsumer } from '../messaging/own-group-consumer';
import { fetchTopicOffsets, fetchTopicOffsetsByTimestamp } from '../messaging/topic-offsets';

const WATCHED = new Set<string>([
  SessionsRevoked.type,
  UserSuspended.type,
  UserEnabled.type,
  UserDeleted.type,
]);

interface UserState {
  /** Tokens carrying a lower session version (`sv`) are refused. */
  version: number;
  /** Why the version last moved (the message a refused token gets). */
  reason: string;
  /** Suspended now, or deleted: every token of the user is refused. */
  blocked: boolean;
  deleted: boolean;
  /** When the last watched event happened (ms): users quiet for longer than a token lives are forgotten. */
  at: number;
}

/** '12h', '30m', '3600' (seconds), '2d', '1w', '500ms' → ms; undefined when unreadable. */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86_400e3, w: 604_800e3 }[match[2] ?? 's'] as number;
  return Number(match[1]) * unit;
}

export interface SessionVersionsOptions {
  kafka: Kafka;
  /** The full topic name, `<prefix>.user`. */
  topic: string;
  logger: KitLogger;
  /** The consumer group's name (a uuid is appended): `<process>.sessions`. */
  name: string;
  /**
   * How far back to read at start: the longest a session token lives (JWT_EXPIRES_IN) and a minute.
   * Any token still valid was issued within it, so any event that can concern it is within it too.
   */
  lookbackMs: number;
  /** Wait before trying again when the topic cannot be read. Default 5 s. */
  retryMs?: number;
}

/** How long ended sessions may wait to be heard, batched (see `batchWindowMs`). */
const SESSION_EVENTS_WINDOW_MS = 200;

/**
 * Which sessions this process refuses, learnt from the user topic: every session of a suspended or
 * deleted account, and every token whose session version (`sv`, stamped at sign-in) is below the
 * user's current one (SessionsRevoked: a password change or reset, a sign-out, a suspension). Every
 * instance of every service must hear every event, so each reads the topic in a consumer group of its
 * own (the kit's `startOwnGroupConsumer`) from `now - lookbackMs` (offsets by timestamp); one user's
 * events share a partition, in order. The gateway and the kit's auth plugin ask `refusal`. Services
 * never read the user database for this.
 */
export class SessionVersions {
  private readonly users = new Map<string, UserState>();
  private readonly listeners = new Set<(userId: string) => void>();
  private readonly reader: OwnGroupConsumer;
  /** Watched events applied (for tests). */
  applied = 0;
  /** Where the topic ended when reading began (next offset per partition), until caught up. */
  private ends: Map<number, bigint> | undefined;
  private caught = false;
  private stopped = false;
  private watch: Promise<void> | undefined;

  constructor(private readonly opts: SessionVersionsOptions) {
    this.reader = startOwnGroupConsumer({
      name: opts.name,
      kafka: opts.kafka,
      topic: opts.topic,
      logger: opts.logger,
      component: 'session-versions',
      startFrom: async (kafka, topic) => {
        // Created if missing (as every service does at start): a topic not there yet would keep this
        // reader, hence every session token, waiting until the user service first starts.
        await ensureTopics(kafka, [topic]);
        const admin = kafka.admin();
        try {
          await admin.connect();
          const since = Date.now() - opts.lookbackMs;
          // The ends first: every event published before this process started lies below them.
          const ends = await fetchTopicOffsets(admin, topic);
          const from = await fetchTopicOffsetsByTimestamp(admin, topic, since);
          if (!this.caught) this.ends = new Map(ends.map((p) => [p.partition, BigInt(p.high)]));
          return from;
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
      // Ended sessions are refused within a fraction of a second; hearing them a fifth of a second
      // apart instead of event by event spares the broker a fetch per user event per process.
      batchWindowMs: SESSION_EVENTS_WINDOW_MS,
      retryMs: opts.retryMs ?? 5_000,
      logs: {
        unread: 'ended sessions are not heard until it can',
        crashed: 'ended sessions are not heard until it can',
        readAgain: 'ended sessions are heard',
      },
    });
  }

  get isListening(): boolean {
    return this.reader.isListening;
  }

  /**
   * Whether every event that was on the topic when reading began has been read: until then this
   * process cannot tell an ended session from a live one (after a restart its memory is empty), so
   * the auth hooks answer 503 to tokens and /readyz says not ready. Once true it stays true (an
   * outage later leaves what was read; the user service cannot publish while Kafka is away either).
   */
  get caughtUp(): boolean {
    if (this.caught) return true;
    if (!this.ends || !this.reader.isListening) return false;
    const read = this.reader.positions();
    for (const [partition, end] of this.ends) {
      // A partition with nothing in the lookback window starts at its end: caught up at once.
      const at = read.get(partition);
      if (at === undefined || BigInt(at) < end) return false;
    }
    this.caught = true;
    this.ends = undefined;
    return true;
  }

  /** Resolves true once caught up, or false after `timeoutMs` (or once stopped). */
  async whenCaughtUp(timeoutMs: number): Promise<boolean> {
    if (this.caughtUp) return true;
    // One watch for every waiter (a burst of requests at start-up does not poll once each).
    this.watch ??= (async () => {
      while (!this.caughtUp && !this.stopped) await new Promise((r) => setTimeout(r, 10).unref());
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.watch, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    return this.caughtUp;
  }

  /** No user is refused (the fast path). */
  get isEmpty(): boolean {
    return this.users.size === 0;
  }

  /** Starts reading; resolves true once the topic is read, false if this attempt failed (it retries). */
  start(): Promise<boolean> {
    return this.reader.start();
  }

  /** Called with the user id whenever some of a user's sessions become refused (to end open streams). */
  onRevoked(listener: (userId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Why a token of `userId` with session version `sv` is refused, or undefined when it is not. */
  refusal(userId: string, sv: unknown): string | undefined {
    const state = this.users.get(userId);
    if (!state) return undefined;
    if (state.deleted) return SESSION_MESSAGES.deleted;
    if (state.blocked) return SESSION_MESSAGES.suspended;
    return (typeof sv === 'number' ? sv : 0) < state.version ? state.reason : undefined;
  }

  /** Applies one user event (public for unit tests). */
  apply(envelope: Pick<EventEnvelope, 'type' | 'payload' | 'occurredAt'>): void {
    if (!WATCHED.has(envelope.type)) return;
    const payload = envelope.payload as {
      userId?: unknown;
      at?: unknown;
      sessionVersion?: unknown;
      reason?: unknown;
    } | null;
    if (!payload || typeof payload.userId !== 'string') return;
    const userId = payload.userId;
    const parsed = Date.parse(typeof payload.at === 'string' ? payload.at : envelope.occurredAt);
    const at = Number.isNaN(parsed) ? Date.now() : parsed;
    const before = this.users.get(userId) ?? {
      version: 0,
      reason: SESSION_MESSAGES.ended,
      blocked: false,
      deleted: false,
      at,
    };
    this.applied += 1;
    if (this.applied % 1024 === 0) this.prune();
    const next: UserState = { ...before, at: Math.max(at, before.at) };
    if (envelope.type === SessionsRevoked.type) {
      const version = typeof payload.sessionVersion === 'number' ? payload.sessionVersion : before.version;
      if (version > before.version) {
        next.version = version;
        next.reason = payload.reason === 'suspended' ? SESSION_MESSAGES.suspended : SESSION_MESSAGES.ended;
      }
    } else if (envelope.type === UserEnabled.type) {
      next.blocked = false;
    } else {
      next.blocked = true;
      next.deleted = before.deleted || envelope.type === UserDeleted.type;
    }
    this.users.set(userId, next);
    if (envelope.type !== UserEnabled.type) for (const listener of this.listeners) listener(userId);
  }

  /**
   * Forgets users whose last event is older than a token lives: every token issued before it has
   * expired, and a suspended or deleted account gets no new one, so nothing is left to refuse.
   */
  prune(now = Date.now()): void {
    const oldest = now - this.opts.lookbackMs;
    for (const [userId, state] of this.users) if (state.at < oldest) this.users.delete(userId);
  }

  /** Stops reading (waits at most 2 s for an attempt against a Kafka out of reach). */
  stop(): Promise<void> {
    this.stopped = true;
    return this.reader.stop();
  }
}
