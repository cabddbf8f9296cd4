import type { ServerResponse } from 'node:http';
import { SESSION_MESSAGES } from '@decor/contracts';
import {
  AUTH_MESSAGES,
  bearerToken,
  createKafka,
  currentUser,
  Gauge,
  hasRole,
  type KitLogger,
  SESSIONS_WAIT_MS,
  type ServiceApp,
  type SessionUser,
  topicFor,
} from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config';
import { type FeedEntry, OrderFeed } from './order-feed';
import { StreamTickets, type TicketClaims } from './stream-ticket';

/**
 * Live order status (issue 9): `GET /api/orders/events` streams Server-Sent Events about the orders
 * the viewer may see (a customer: their own; staff: all), fed by the order topic that this instance
 * reads in a consumer group of its own (src/order-feed.ts). The contract is in the README
 * ("Live order status"):
 *
 * - credentials: `Authorization: Bearer <session>` or `?ticket=` from `POST /api/orders/events/ticket`
 *   (one use, 60 s; src/stream-ticket.ts says why and what "one use" means with several instances);
 * - each change: `id: <epoch>-<seq>`, `event: order`, `data: {type, orderType, id, status, revision}`;
 * - on opening: `event: ready` carrying the current position as its id; with `Last-Event-ID` (header,
 *   or `?lastEventId=` for a new EventSource) first exactly the missed events when this instance
 *   still has them, else `event: resync` (refetch what is on screen);
 * - a comment line every 15 s; at most ORDER_STREAM_MAX_PER_USER streams per user and
 *   ORDER_STREAM_MAX_STREAMS per instance (429 beyond); the stream ends with the session.
 *
 * The answer is written on the raw response (`reply.hijack()`): nothing in the gateway compresses
 * or buffers it (no compression plugin; helmet and CORS only add headers, copied here), and
 * `X-Accel-Buffering: no` asks a proxy in front not to buffer either.
 */

export const ORDER_EVENTS_PATH = '/api/orders/events';

const refusal = (description: string) => ({
  description,
  content: {
    'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } },
  },
});

/** The two endpoints in the merged OpenAPI document at /api/docs (paths under /api). */
export const ORDER_STREAM_DOCS = {
  paths: {
    '/orders/events/ticket': {
      post: {
        summary: 'A one-use, 60-second ticket to open the live order status stream from an EventSource',
        description:
          'Send no body. The ticket names the caller and their permissions; show it once as `?ticket=` on ' +
          '`GET /api/orders/events`. It is refused the second time on the same gateway instance and after 60 s.',
        security: [{ session: [] }],
        responses: {
          200: {
            description: 'The ticket',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    result: {
                      type: 'object',
                      properties: {
                        ticket: { type: 'string' },
                        expiresAt: { type: 'string', format: 'date-time' },
                      },
                    },
                  },
                },
              },
            },
          },
          401: refusal('No or bad session'),
        },
      },
    },
    '/orders/events': {
      get: {
        summary: 'Live order status: Server-Sent Events about the orders the caller may see',
        description:
          'Credentials: `Authorization: Bearer <session>` or `?ticket=`. Each change: `id: <epoch>-<seq>`, ' +
          '`event: order`, `data: {"type","orderType","id","status","revision"}` (a customer gets their own ' +
          'orders, staff all; in order per order, not across orders). Opens with `event: ready` (id = the ' +
          'current position). Resume with the `Last-Event-ID` header or `?lastEventId=`: the missed changes, ' +
          'or `event: resync` when this instance cannot tell them (refetch). A `: keep-alive` comment every ' +
          '15 s; the stream ends with the session.',
        security: [{ session: [] }, {}],
        parameters: [
          { name: 'ticket', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'lastEventId', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          200: {
            description: 'The event stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          401: refusal('No credentials, a bad session, or a used, expired or forged ticket'),
          429: refusal('Too many open streams for this user (5) or this gateway instance'),
          503: refusal(
            'This gateway instance cannot read the order events right now; try again (Retry-After)',
          ),
        },
      },
    },
  },
};
export const ORDER_TICKET_PATH = '/api/orders/events/ticket';
/** How long an EventSource waits before reconnecting (the SSE `retry:` field). */
const RECONNECT_MS = 3_000;
/** A stream whose client reads slower than this much pending output is dropped (it can resume). */
const MAX_PENDING_BYTES = 1 << 20;
/** How long a stream waits for this instance to start reading the topic before a 503. */
const READY_TIMEOUT_MS = 15_000;

interface Viewer {
  id: string;
  staff: boolean;
  /** The session's end (ms), when known: the stream is closed then. */
  expiresAt?: number;
  /** The session's version: the stream ends when the session does (not at any event of its user). */
  sv?: number;
}

interface OpenStream {
  viewer: Viewer;
  res: ServerResponse;
  close(): void;
}

export interface OrderStreams {
  feed: OrderFeed;
  tickets: StreamTickets;
  /** Streams open on this instance. */
  readonly open: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Live order status streams; undefined when ORDER_STREAM_MAX_STREAMS is 0. */
    orderStreams: OrderStreams | undefined;
  }
}

const sse = {
  event(event: string, id: string, data: unknown): string {
    return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  },
};

const canSee = (viewer: Viewer, entry: FeedEntry) => viewer.staff || entry.ownerId === viewer.id;

/** An entry as an SSE message, written once per entry however many streams it goes to. */
const wired = new WeakMap<FeedEntry, string>();
function wireOf(feed: OrderFeed, entry: FeedEntry): string {
  let text = wired.get(entry);
  if (text === undefined) {
    text = sse.event('order', `${feed.epoch}-${entry.seq}`, entry.change);
    wired.set(entry, text);
  }
  return text;
}

function tooMany(reply: FastifyReply, message: string) {
  return reply.code(429).header('retry-after', '30').send({ message });
}

export function registerOrderStreams(app: ServiceApp, config: GatewayConfig): void {
  if (config.ORDER_STREAM_MAX_STREAMS === 0) {
    app.decorate('orderStreams', undefined);
    return;
  }
  const logger = app.log as KitLogger;
  const kafka = createKafka({
    clientId: 'gateway-orders',
    brokers: [...config.KAFKA_BROKERS],
    logger,
    config: { connectionTimeout: 3_000, retry: { retries: 2, initialRetryTime: 300 } },
  });
  const feed = new OrderFeed({
    kafka,
    topic: topicFor(config.KAFKA_TOPIC_PREFIX, 'order'),
    logger,
    bufferEvents: config.ORDER_STREAM_BUFFER_EVENTS,
    bufferMs: config.ORDER_STREAM_BUFFER_MS,
  });
  const tickets = new StreamTickets(config.JWT_SECRET);
  const wire = (entry: FeedEntry) => wireOf(feed, entry);
  const streams = new Set<OpenStream>();
  /** Streams admitted and waiting for the feed (counted against the cap). */
  let reserved = 0;
  const perUser = new Map<string, number>();
  const gauge = new Gauge({
    name: 'gateway_order_streams',
    help: 'Live order status streams open on this gateway instance',
    registers: [app.metrics],
    collect() {
      this.set(streams.size);
    },
  });
  void gauge;
  const state: OrderStreams = {
    feed,
    tickets,
    get open() {
      return streams.size;
    },
  };
  app.decorate('orderStreams', state);

  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const s of streams) {
      if (s.viewer.expiresAt !== undefined && s.viewer.expiresAt <= now) s.close();
      else s.res.write(': keep-alive\n\n');
    }
    tickets.sweep();
  }, config.ORDER_STREAM_HEARTBEAT_MS);
  heartbeat.unref();

  const sessionExpiry = (request: FastifyRequest): number | undefined => {
    const token = bearerToken(request);
    const exp = token ? app.jwt.decode<{ exp?: number }>(token)?.exp : undefined;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  };

  // Any signed-in user; the ticket names them and their permissions, nothing else.
  app.post(ORDER_TICKET_PATH, { preHandler: app.authenticate }, async (request) => {
    const user = currentUser(request) as SessionUser;
    // Warm up: the stream that follows need not wait for this instance to join the topic.
    void feed.ready(READY_TIMEOUT_MS);
    const { ticket, exp } = tickets.issue(user, sessionExpiry(request));
    return { result: { ticket, expiresAt: new Date(exp).toISOString() } };
  });

  app.get(ORDER_EVENTS_PATH, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    let viewer: Viewer;
    let claims: TicketClaims | undefined;
    if (bearerToken(request)) {
      await app.authenticate(request, reply);
      const user = currentUser(request) as SessionUser;
      viewer = {
        id: user.id,
        staff: hasRole(user, 'staff'),
        expiresAt: sessionExpiry(request),
        sv: user.sessionVersion,
      };
    } else if (typeof query.ticket === 'string' && query.ticket) {
      let checked = tickets.check(query.ticket);
      // A ticket outlives a restart (same key): until this instance has read which sessions ended, a
      // ticket of an ended session would look valid, so a genuine one waits for them like a session
      // token does, and is checked again after (another request may have used it meanwhile).
      const revocations = app.sessionRevocations;
      if (typeof checked !== 'string' && revocations && !revocations.caughtUp) {
        if (!(await revocations.whenCaughtUp(SESSIONS_WAIT_MS))) {
          return reply.code(503).header('retry-after', '5').send({ message: SESSION_MESSAGES.unchecked });
        }
        checked = tickets.check(query.ticket);
      }
      if (typeof checked === 'string') {
        return reply.code(401).send({
          message:
            checked === 'used'
              ? 'This stream ticket was already used; ask for a new one'
              : checked === 'expired'
                ? 'This stream ticket has expired; ask for a new one'
                : 'Invalid stream ticket',
        });
      }
      // A ticket names its user and session: refused once that session ended (src/session-revocation.ts).
      const refused = app.sessionRevocations?.refusal(checked.sub, checked.sv);
      if (refused) return reply.code(401).send({ message: refused });
      claims = checked;
      viewer = {
        id: checked.sub,
        staff: hasRole({ id: checked.sub, permissions: checked.perm, email: '' }, 'staff'),
        expiresAt: checked.sexp,
        sv: checked.sv,
      };
    } else {
      return reply.code(401).send({ message: AUTH_MESSAGES.missing });
    }

    // Caps, the ticket and the slot are settled before any await: two racing requests cannot both pass.
    const mine = perUser.get(viewer.id) ?? 0;
    if (mine >= config.ORDER_STREAM_MAX_PER_USER) {
      return tooMany(reply, `At most ${config.ORDER_STREAM_MAX_PER_USER} live update streams per user`);
    }
    if (streams.size + reserved >= config.ORDER_STREAM_MAX_STREAMS) {
      return tooMany(reply, 'Too many live update streams on this server, please try again shortly');
    }
    if (claims) tickets.consume(claims);
    perUser.set(viewer.id, mine + 1);
    reserved += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (perUser.get(viewer.id) ?? 1) - 1;
      if (left > 0) perUser.set(viewer.id, left);
      else perUser.delete(viewer.id);
    };

    const ready = await feed.ready(READY_TIMEOUT_MS);
    reserved -= 1;
    const gone = request.raw.socket.destroyed;
    if (!ready || gone) {
      release();
      if (gone) {
        reply.hijack();
        return;
      }
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ message: 'Live updates are unavailable right now, please try again shortly' });
    }

    const lastEventId =
      (request.headers['last-event-id'] as string | undefined) ??
      (typeof query.lastEventId === 'string' ? query.lastEventId : undefined);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    request.raw.socket.setNoDelay(true);
    request.raw.socket.setTimeout(0);

    const write = (chunk: string) => {
      if (res.destroyed) return;
      res.write(chunk);
      if (res.writableLength > MAX_PENDING_BYTES) {
        request.log.warn({ viewer: viewer.id }, 'order stream client too slow; closed (it may resume)');
        stream.close();
      }
    };
    let unsubscribe = () => {};
    const stream: OpenStream = {
      viewer,
      res,
      close: () => {
        if (!streams.delete(stream)) return;
        unsubscribe();
        release();
        res.end();
      },
    };

    // Synchronously from here to `subscribe`: no event can fall between the replay and the live ones.
    let out = `retry: ${RECONNECT_MS}\n\n`;
    if (lastEventId !== undefined && lastEventId !== '') {
      const missed = feed.since(lastEventId);
      if (missed) {
        for (const e of missed) if (canSee(viewer, e)) out += wire(e);
      } else {
        out += sse.event('resync', feed.position, {
          reason: 'Refetch: changes since your last event are not known here',
        });
      }
    }
    out += sse.event('ready', feed.position, {});
    streams.add(stream);
    unsubscribe = feed.subscribe({
      deliver: (e) => {
        if (canSee(viewer, e)) write(wire(e));
      },
      resync: () =>
        write(sse.event('resync', feed.position, { reason: 'Refetch: live updates were interrupted' })),
    });
    write(out);
    res.on('close', () => stream.close());
    // Gone before the listener was there: 'close' will not come again.
    if (request.raw.socket.destroyed) stream.close();
  });

  // A suspended or deleted user's open streams end at once (a reconnect is then refused), and those of
  // an ended session; a late-heard event that ended an older session leaves a newer one's stream open.
  const revocations = app.sessionRevocations;
  revocations?.onRevoked((userId) => {
    for (const s of [...streams]) {
      if (s.viewer.id === userId && revocations.refusal(userId, s.viewer.sv)) s.close();
    }
  });

  // Open streams would hold the server's close: end them first (clients reconnect elsewhere).
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const s of [...streams]) s.close();
  });
  app.addHook('onClose', () => feed.stop());
}
