import { Readable } from 'node:stream';
import { clientIp, HttpError, requestLimit, SESSIONS_WAIT_LEFT_HEADER, TOO_MANY_REQUESTS } from '@decor/kit';
import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CatalogueCache, cachedReads } from './catalogue-cache';
import type { GatewayConfig } from './config';
import { upstreamPath } from './path-guard';
import { ROUTES, type Route, type ServiceName } from './routing-table';
import { mayRetryElsewhere, type UpstreamPool } from './upstream-pool';

export interface ProxyOptions {
  config: GatewayConfig;
  upstreams: Record<ServiceName, UpstreamPool>;
  /** Answers the catalogue's public reads (src/catalogue-cache.ts); absent: they are proxied too. */
  catalogueCache?: CatalogueCache;
}

/**
 * /api/<prefix>/… → <service>/<prefix>/…, one proxy per routing-table entry, the service's path built
 * from what the route matched (src/path-guard.ts refused the paths that could mean something else).
 * Request bodies are passed through untouched; the service validates them. The request id and the
 * client's ip (`X-Forwarded-For`, as this gateway determined it) travel along. Rate-limited entries
 * count per client ip and entry in Redis, so every gateway instance shares one limit. A service of
 * several instances gets requests in turn; one an instance could not take goes to the next
 * (mayRetryElsewhere), its body kept for that.
 */
export async function apiProxy(
  app: FastifyInstance,
  { config, upstreams, catalogueCache }: ProxyOptions,
): Promise<void> {
  app.addHook('onRequest', refuseOversizedBody(config.BODY_LIMIT_BYTES));
  app.addHook('preParsing', readChunkedBody(config.BODY_LIMIT_BYTES));

  for (const route of ROUTES) {
    await app.register(async (scope) => {
      if (route.rateLimited) {
        const perClient = requestLimit(scope, {
          name: `ip:${route.prefix}`,
          max: config.AUTH_RATE_LIMIT_PER_MINUTE,
          windowMs: 60_000,
          key: clientIp,
          message: () => TOO_MANY_REQUESTS,
        });
        scope.addHook('onRequest', perClient.count);
      }
      if (route.service === 'catalogue' && catalogueCache) {
        scope.addHook(
          'preHandler',
          cachedReads(scope, {
            catalogueCache,
            upstreams: upstreams.catalogue,
            prefix: route.prefix,
            timeoutMs: config.UPSTREAM_TIMEOUT_MS,
            failed: (reply, error) => upstreamFailed(reply, route, error),
          }),
        );
        // A staff write of products or categories through this gateway clears its cache before the
        // answer leaves, so the writer's next read here sees the change (other instances clear on
        // the catalogue event). The trucking fee is in none of the cached answers.
        if (route.prefix === '/product' || route.prefix === '/categories')
          scope.addHook('onSend', (request, reply, payload, done) => {
            if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400)
              catalogueCache.cache.invalidate();
            done(null, payload);
          });
      }
      const pool = upstreams[route.service];
      if (pool.size > 1) scope.addHook('preParsing', keepBody(config.BODY_LIMIT_BYTES));
      await scope.register(httpProxy, {
        upstream: pool.urls[0] as string,
        prefix: route.prefix,
        rewritePrefix: route.prefix,
        preHandler: accessCheck(scope, route),
        handler: (request, reply, _dest, options) => {
          const send = (upstream: string, tries: number) => {
            let failed = false;
            const body = keptBodies.get(request);
            reply.from(upstreamPath(route.prefix, request), {
              ...options,
              getUpstream: () => upstream,
              ...(body
                ? { body, contentType: request.headers['content-type'] ?? 'application/octet-stream' }
                : {}),
              onError: (r, { error }) => {
                // @fastify/reply-from reports a refused connection twice: act once.
                if (failed || reply.sent) return;
                failed = true;
                if (tries < pool.size && mayRetryElsewhere(request.method, request.headers, error)) {
                  reply.log.info(
                    { err: error, service: route.service, upstream },
                    'upstream failed, next instance',
                  );
                  send(pool.after(upstream), tries + 1);
                } else upstreamFailed(r, route, error);
              },
            });
          };
          send(pool.next(), 1);
        },
        // Node's agent keeps an idle connection until the service closes it (a service's keep-alive
        // hint counts only below an agent timeout): with one, the gateway closes it first.
        http: {
          agentOptions: { timeout: config.UPSTREAM_IDLE_MS },
          requestOptions: { timeout: config.UPSTREAM_TIMEOUT_MS },
        },
        replyOptions: {
          // The client's address as this edge saw it (TRUST_PROXY decides whether a load balancer's
          // X-Forwarded-For counts), replacing any the client sent: services limit per address with it.
          rewriteRequestHeaders: (req, headers) => ({
            ...headers,
            'x-request-id': req.id,
            'x-forwarded-for': req.ip,
            [SESSIONS_WAIT_LEFT_HEADER]: String(req.sessionsWaitLeftMs),
          }),
          onError: (reply, { error }) => upstreamFailed(reply, route, error),
        },
      });
    });
  }
}

/** Bodies read whole before they are proxied, to be sent again to another instance. */
const keptBodies = new WeakMap<FastifyRequest, Buffer>();

/** preParsing of a service with several instances: its bodies (within the limit) kept as bytes. */
function keepBody(limit: number) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: Readable,
    done: (err: Error | null, body?: Readable) => void,
  ): void => {
    // No content type: no body to send again (nor one the proxy would pass on).
    if (request.method === 'GET' || request.method === 'HEAD' || !request.headers['content-type']) {
      done(null, payload);
      return;
    }
    readWhole(payload, limit, reply).then(
      (body) => {
        keptBodies.set(request, body);
        done(null, Readable.from([body]));
      },
      (err: Error) => done(err),
    );
  };
}

function accessCheck(app: FastifyInstance, route: Route) {
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    if (route.access === 'public') {
      done();
      return;
    }
    const check = route.access === 'staff' ? app.requireRole('staff') : app.authenticate;
    Promise.resolve(check.call(app, request, reply)).then(() => done(), done);
  };
}

type ProxyReply = Pick<FastifyReply, 'log' | 'sent'> & {
  code(status: number): { send(body: unknown): unknown };
};

function upstreamFailed(reply: ProxyReply, route: Route, error: Error & { code?: string }): void {
  // @fastify/reply-from reports a refused connection twice: answer once.
  if (reply.sent) return;
  const timedOut =
    error.code === 'UND_ERR_HEADERS_TIMEOUT' || error.code === 'ETIMEDOUT' || /timeout/i.test(error.message);
  reply.log.warn({ err: error, service: route.service }, 'upstream failed');
  reply.code(timedOut ? 504 : 503).send({
    message: timedOut
      ? `The ${route.service} service did not answer in time`
      : `The ${route.service} service is unavailable, please try again shortly`,
  });
}

function refuseOversizedBody(limit: number) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length <= limit) {
      done();
      return;
    }
    // The client may still be sending the body: answer now and drop the connection rather than read it.
    reply
      .code(413)
      .header('connection', 'close')
      .send({ message: tooLargeMessage(limit) });
  };
}

/**
 * A body without a Content-Length (chunked) is read here, up to the limit, before it is proxied: the
 * service would refuse it too, but by closing the connection mid-body, which the proxy can only
 * report as the service being unavailable. Over the limit: 413 and the connection closed unread.
 */
function readChunkedBody(limit: number) {
  // Not async: most requests have no chunked body, and they go on without a promise.
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: Readable,
    done: (err: Error | null, body?: Readable) => void,
  ): void => {
    if (request.headers['content-length'] !== undefined || !request.headers['transfer-encoding'])
      done(null, payload);
    else
      readWhole(payload, limit, reply).then(
        (body) => done(null, Readable.from([body])),
        (err: Error) => done(err),
      );
  };
}

function readWhole(payload: Readable, limit: number, reply: FastifyReply): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      payload.off('data', onData).off('end', onEnd).off('error', reject);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      payload.pause();
      reply.header('connection', 'close');
      reject(new HttpError(413, tooLargeMessage(limit)));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    payload.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

const tooLargeMessage = (limit: number) => `The request body is larger than ${Math.round(limit / 1024)} KB`;
