import { randomUUID } from 'node:crypto';
import { QboConnectionChanged } from '@decor/contracts';
import { newEvent } from '@decor/kit';
import type { Redis } from 'ioredis';
import type pino from 'pino';
import { CONNECTION_ID, type QboConnectionDoc, type QboConnectionModel } from '../store/connection-model';
import { SessionExpired } from './faults';
import { GrantRefused, type OAuthEndpoints, refreshTokens, type TokenSet } from './oauth';
import { withRedisLock } from './redis-lock';
import type { TokenCipher } from './token-cipher';

/** Refresh a little before the access token expires, so no call goes out with a dying token. */
const REFRESH_MARGIN_MS = 60_000;
const LOCK_TTL_MS = 20_000;

export interface LiveSession {
  realmId: string;
  accessToken: string;
  generation: number;
}

export interface ConnectionStatus {
  connected: boolean;
  realmId: string | null;
  companyName: string | null;
  accessTokenExpiresAt: string | null;
  lostReason: string | null;
}

export interface QboSessions {
  /** A valid access token, refreshed first when it is (nearly) expired. Throws SessionExpired. */
  current(): Promise<LiveSession>;
  /**
   * Refresh now (Renew, or QuickBooks refused the token of `generation` with a 401), unless another
   * process refreshed meanwhile.
   */
  renew(generation?: number): Promise<LiveSession>;
  /** Stores a new connection (after the OAuth callback). */
  connect(args: {
    realmId: string;
    companyName: string | null;
    tokens: TokenSet;
    userId: string;
  }): Promise<void>;
  /** The connection is gone (revoked, refresh refused): forget the tokens, tell the other services. */
  lose(reason: string, generation?: number): Promise<void>;
  status(): Promise<ConnectionStatus>;
}

/**
 * The QuickBooks tokens of the company, shared by every process of this service through Mongo.
 * Intuit rotates refresh tokens, so two processes refreshing at once would leave one of them with a
 * dead token: refreshes are serialized per company with a Redis lock, and whoever gets the lock
 * first re-reads the stored generation — if it moved on, someone else refreshed and that token is used.
 */
export function qboSessions(deps: {
  connections: QboConnectionModel;
  redis: Redis;
  redisPrefix: string;
  cipher: TokenCipher;
  oauth: OAuthEndpoints;
  log: pino.Logger;
  eventsWritten: () => void;
}): QboSessions {
  const { connections, redis, cipher, oauth, log } = deps;
  const lockKey = `${deps.redisPrefix}:qbo-refresh-lock`;

  const read = () => connections.findById(CONNECTION_ID).lean<QboConnectionDoc>();
  const live = (doc: QboConnectionDoc): LiveSession => {
    if (!doc.connected || !doc.realmId || !doc.accessToken)
      throw new SessionExpired(doc.lostReason ?? 'not connected');
    return { realmId: doc.realmId, accessToken: cipher.decrypt(doc.accessToken), generation: doc.generation };
  };
  const fresh = (doc: QboConnectionDoc) =>
    doc.accessExpiresAt !== null && doc.accessExpiresAt.getTime() - REFRESH_MARGIN_MS > Date.now();

  async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
    const done = await withRedisLock(redis, lockKey, LOCK_TTL_MS, async () => ({ value: await work() }), {
      waitMs: LOCK_TTL_MS,
    });
    if (!done) throw new Error('timed out waiting for another process to refresh the QuickBooks token');
    return done.value;
  }

  async function lose(reason: string, generation?: number): Promise<void> {
    const doc = await read();
    if (!doc?.connected) return;
    const filter: Record<string, unknown> = { _id: CONNECTION_ID, connected: true };
    if (generation !== undefined) filter.generation = generation;
    const res = await connections.updateOne(filter, {
      $set: {
        connected: false,
        accessToken: null,
        refreshToken: null,
        accessExpiresAt: null,
        lostReason: reason,
      },
      $push: {
        outbox: newEvent(QboConnectionChanged, {
          aggregateId: CONNECTION_ID,
          correlationId: randomUUID(),
          payload: { connected: false, realmId: doc.realmId, companyName: doc.companyName, reason },
        }),
      },
    });
    if (res.modifiedCount > 0) {
      log.warn({ reason }, 'QuickBooks connection lost: jobs wait until staff reconnect');
      deps.eventsWritten();
    }
  }

  /**
   * Refreshes unless the stored generation moved past `seen` while we waited for the lock (then
   * another process refreshed, and its token is used). `seen` undefined: the generation stored now.
   */
  async function refresh(seen: number | undefined): Promise<LiveSession> {
    const before = seen ?? (await read())?.generation;
    return withRefreshLock(async () => {
      const doc = await read();
      if (!doc?.connected || !doc.refreshToken) throw new SessionExpired(doc?.lostReason ?? 'not connected');
      if (doc.generation !== before && fresh(doc)) return live(doc);
      let tokens: TokenSet;
      try {
        tokens = await refreshTokens(oauth, cipher.decrypt(doc.refreshToken));
      } catch (err) {
        if (err instanceof GrantRefused) {
          await lose(`QuickBooks refused the refresh token (${err.error})`, doc.generation);
          throw new SessionExpired('refresh refused');
        }
        throw err;
      }
      const generation = doc.generation + 1;
      await connections.updateOne(
        { _id: CONNECTION_ID, generation: doc.generation },
        {
          $set: {
            accessToken: cipher.encrypt(tokens.accessToken),
            refreshToken: cipher.encrypt(tokens.refreshToken),
            accessExpiresAt: tokens.accessExpiresAt,
            refreshExpiresAt: tokens.refreshExpiresAt,
            generation,
          },
        },
      );
      log.info({ generation }, 'QuickBooks access token refreshed');
      return { realmId: doc.realmId as string, accessToken: tokens.accessToken, generation };
    });
  }

  return {
    async current() {
      const doc = await read();
      if (!doc) throw new SessionExpired('not connected');
      if (doc.connected && fresh(doc)) return live(doc);
      return refresh(doc.generation);
    },
    renew: (generation) => refresh(generation),
    lose,
    async connect({ realmId, companyName, tokens, userId }) {
      await connections.updateOne(
        { _id: CONNECTION_ID },
        {
          $set: {
            connected: true,
            realmId,
            companyName,
            accessToken: cipher.encrypt(tokens.accessToken),
            refreshToken: cipher.encrypt(tokens.refreshToken),
            accessExpiresAt: tokens.accessExpiresAt,
            refreshExpiresAt: tokens.refreshExpiresAt,
            connectedBy: userId,
            lostReason: null,
          },
          $inc: { generation: 1 },
          $push: {
            outbox: newEvent(QboConnectionChanged, {
              aggregateId: CONNECTION_ID,
              correlationId: randomUUID(),
              payload: { connected: true, realmId, companyName, reason: 'connected' },
            }),
          },
        },
        { upsert: true },
      );
      deps.eventsWritten();
    },
    async status() {
      const doc = await read();
      return {
        connected: doc?.connected ?? false,
        realmId: doc?.realmId ?? null,
        companyName: doc?.companyName ?? null,
        accessTokenExpiresAt:
          doc?.connected && doc.accessExpiresAt ? doc.accessExpiresAt.toISOString() : null,
        lostReason: doc?.lostReason ?? null,
      };
    },
  };
}
