import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Longest a refused body's connection stays open, reading and dropping what the client still sends. */
const LINGER_MS = 5_000;
const lingering = new WeakSet<Socket>();

/**
 * Every 413 (the proxy's limits, Fastify's bodyLimit) goes out with `Connection: close`, and the
 * connection is closed only once the answer is out. Node destroys a closing socket as soon as the
 * answer is written; with the client's body still arriving, that close is a reset, and a client
 * still writing met EPIPE instead of reading the 413 (issue 28).
 */
export function registerTooLargeClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 413 && request.raw.httpVersionMajor === 1) {
      reply.header('connection', 'close');
      closeAfterAnswer(request.raw);
    }
    done(null, payload);
  });
}

/**
 * Replaces Node's destroy-once-written for this connection with a half close: the answer, then FIN;
 * the rest of the body is read and dropped until the client closes its side, or LINGER_MS pass.
 */
export function closeAfterAnswer(req: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs).unref();
    socket.once('close', () => clearTimeout(timer));
  };
  // A body reader that stopped at the limit paused the request: flowing again, its bytes are dropped.
  req.resume();
}
