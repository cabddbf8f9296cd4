import mongoose, { type Connection } from 'mongoose';

type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export interface MongoOptions {
  /**
   * How long an operation (and the start) looks for a server before failing: short, so a wrong URL
   * fails clearly at start and, while MongoDB is down, a request answers 503 within a few seconds.
   */
  serverSelectionTimeoutMS?: number;
  /**
   * How long the start keeps trying an unreachable server before giving up: a service started beside
   * its database (or while a loaded one pauses) waits for it instead of exiting after one selection.
   */
  startWithinMs?: number;
}

/** An operation waits at most this long for an unreachable MongoDB (then 503, see http/unavailable). */
export const MONGO_SELECTION_TIMEOUT_MS = 2500;
/** No operation of ours runs for long; one that gets no answer for this long fails (then 503). */
export const MONGO_SOCKET_TIMEOUT_MS = 10_000;
/** The start tries an unreachable MongoDB this long (one warning, then the clear error). */
export const MONGO_START_WITHIN_MS = 30_000;

/** 'mongodb://user:secret@host' → 'mongodb://user:***@host', for log lines and errors. */
export function redactMongoUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * Opens this service's own database as a dedicated mongoose Connection (never the global
 * `mongoose.connect`, so tests and tools can hold several). Models are built on it: `conn.model(...)`.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  logger?: Logger,
  options: MongoOptions = {},
): Promise<Connection> {
  const where = `${redactMongoUrl(url)} (database ${dbName})`;
  // Mongoose otherwise captures a stack trace on every query (to report a query run twice); with
  // source maps on, formatting it was ~5 % of the order service's CPU in a burst of submissions.
  mongoose.set('skipOriginalStackTraces', true);
  const selection = options.serverSelectionTimeoutMS ?? MONGO_SELECTION_TIMEOUT_MS;
  const giveUpAt = Date.now() + (options.startWithinMs ?? MONGO_START_WITHIN_MS);
  for (let attempt = 1; ; attempt++) {
    const conn = mongoose.createConnection(url, {
      dbName,
      serverSelectionTimeoutMS: selection,
      // A server that accepts but does not answer (frozen, a dropped network): a new connection gives up
      // after this, an operation on an open one after MONGO_SOCKET_TIMEOUT_MS (within the gateway's 14 s).
      connectTimeoutMS: MONGO_SELECTION_TIMEOUT_MS,
      socketTimeoutMS: MONGO_SOCKET_TIMEOUT_MS,
      // mongoose would otherwise hold every command while disconnected (10 s by default) and then
      // fail it with a generic error: the driver's server selection above fails faster and clearly.
      bufferCommands: false,
    });
    try {
      await conn.asPromise();
      return watched(conn, where, logger);
    } catch (err) {
      await conn.close().catch(() => undefined);
      const unreachable = /ServerSelection/.test((err as Error).name);
      if (!unreachable || Date.now() + selection > giveUpAt)
        throw new Error(`Cannot connect to MongoDB at ${where}: ${(err as Error).message}`);
      if (attempt === 1)
        logger?.warn(
          { mongo: where, err: (err as Error).message },
          'MongoDB is not answering yet; still trying',
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function watched(conn: Connection, where: string, logger?: Logger): Connection {
  logger?.info({ mongo: where }, 'connected to MongoDB');
  conn.on('disconnected', () => {
    // Our own close (a shutdown) is no warning; mongoose marks it before the event (internal, 8.x).
    if ((conn as unknown as { _closeCalled?: boolean })._closeCalled)
      logger?.info({ mongo: where }, 'MongoDB closed');
    else logger?.warn({ mongo: where }, 'MongoDB disconnected');
  });
  conn.on('reconnected', () => logger?.info({ mongo: where }, 'MongoDB reconnected'));
  return conn;
}

/** For `app.addReadinessCheck('mongo', mongoReadinessCheck(conn))`: connected and answering a ping. */
export function mongoReadinessCheck(conn: Connection): () => Promise<void> {
  return async () => {
    if (conn.readyState !== mongoose.ConnectionStates.connected || !conn.db) {
      throw new Error(`not connected (state ${mongoose.ConnectionStates[conn.readyState]})`);
    }
    await conn.db.command({ ping: 1 });
  };
}
