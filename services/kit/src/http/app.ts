import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawServerDefault,
} from 'fastify';
import type { Registry } from 'prom-client';
import { METRICS_PATH, metricsPlugin } from '../metrics/http';
import { createMetricsRegistry } from '../metrics/registry';
import { traceLogMixin } from '../tracing/context';
import { type AuthOptions, authPlugin } from './auth';
import { errorHandlerPlugin, type NotFoundHandler } from './error-handler';
import { healthPlugin } from './health';
import { redactedRequestLog } from './log-redaction';
import { buildValidatorFactory } from './validation';

/** A service's Fastify instance, with TypeBox schemas typing `request.body/query/params`. */
export type ServiceApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface ServiceAppOptions {
  /** Appears on every log line as `service`. */
  name: string;
  /** pino level; 'silent' in tests that do not read logs. Default 'info'. */
  logLevel?: string;
  /** A ready logger instead (tests capture lines with it); `logLevel` is then ignored. */
  logger?: FastifyBaseLogger;
  /** Session tokens: registers `authenticate`, `optionalAuth`, `requireRole`, `signToken`. */
  jwt?: AuthOptions;
  /** Largest accepted body in bytes (413 above). Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Whose X-Forwarded-* to believe for client ip and protocol. Default: proxies on loopback and private
   * networks (the gateway, a compose/k8s network), never a public client. The public edge passes false.
   */
  trustProxy?: boolean | string | string[];
  /** Answers unmatched requests (default: 404 `{ message: 'Not found' }`). */
  notFound?: NotFoundHandler;
  /** Time limit for each `/readyz` check. Default 2000 ms. */
  readinessTimeoutMs?: number;
  /**
   * The process's metrics registry, answered at `GET /metrics` (also `app.metrics`). Default: a new one
   * labelled `service=<name>` with the default process metrics.
   */
  metrics?: Registry;
  /**
   * Where `/readyz`, `/metrics` and `/openapi.json` are answered: 'public' (default) on the app's own
   * port, for services that only the gateway and the operator reach; 'internal' only on the port
   * `listenInternal` opens, for the public edge. `/healthz` (it says only "ok") stays on the app.
   */
  operations?: 'public' | 'internal';
}

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;
const QUIET_ROUTES = new Set(['/healthz', '/readyz', METRICS_PATH]);

/** The URL's path, without the query (no array per request, as split would make). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** Honour the caller's request id (gateway → service keeps one id per user action), else mint one. */
function requestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Builds the Fastify app every service (and the gateway) starts from: logging with request ids,
 * `{ message }` errors, readable validation, `/healthz` + `/readyz`, `/metrics` with the HTTP request
 * histogram, and (with `jwt`) the auth hooks.
 */
const closingApps = new WeakSet<FastifyInstance>();

/** The app is shutting down: from now on each answer closes its keep-alive connection. */
export function markClosing(app: FastifyInstance): void {
  closingApps.add(app);
}

export async function createServiceApp(opts: ServiceAppOptions): Promise<ServiceApp> {
  const app = Fastify({
    ...(opts.logger
      ? {
          loggerInstance: opts.logger.child(
            { service: opts.name },
            { serializers: { req: redactedRequestLog } },
          ),
        }
      : {
          logger: {
            level: opts.logLevel ?? 'info',
            base: { service: opts.name },
            mixin: traceLogMixin,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // No secret of a URL (a reset link's token, an OAuth code, a stream ticket) in the access log.
            serializers: { req: redactedRequestLog },
          },
        }),
    logController: new LogController({
      // Probes hit these every few seconds; logging each would drown the real traffic.
      disableRequestLogging: (request) => QUIET_ROUTES.has(pathOf(request.url)),
    }),
    genReqId: requestId,
    requestIdHeader: false,
    // A request that reaches a closing instance is served (its dependencies close after it), not
    // refused with a bare 503: a rolling restart then refuses nothing (runService's drain).
    return503OnClosing: false,
    trustProxy: opts.trustProxy ?? 'loopback,linklocal,uniquelocal',
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    schemaController: { compilersFactory: { buildValidator: buildValidatorFactory() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Hooks on every request take `done` rather than being async: no promise per request and hook.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // First, so its timing hook covers every route and the not-found handler.
  const publicOperations = opts.operations !== 'internal';
  await app.register(metricsPlugin, {
    registry: opts.metrics ?? createMetricsRegistry(opts.name),
    route: publicOperations,
  });

  // Requests already running when shutdown starts finish normally, but their keep-alive connection must
  // not outlive them: server.close() only reaps connections idle at that moment and would otherwise wait
  // for the client's keep-alive to time out.
  // From the signal on (runService's drain), not only once the port closes.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if ((closing || closingApps.has(app)) && request.raw.httpVersionMajor === 1)
      reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(errorHandlerPlugin, { notFound: opts.notFound });
  // Route schemas double as the API's documentation; the gateway merges every service's document.
  await app.register(swagger, {
    openapi: {
      info: { title: `${opts.name} service`, version: '1' },
      components: { securitySchemes: { session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  if (publicOperations) app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(healthPlugin, {
    checkTimeoutMs: opts.readinessTimeoutMs,
    readinessRoute: publicOperations,
  });
  if (opts.jwt) await app.register(authPlugin, opts.jwt);
  return app;
}
