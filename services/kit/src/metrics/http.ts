import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, type Registry } from 'prom-client';
import { metricOf } from './registry';

export const METRICS_PATH = '/metrics';
/** The `route` label of requests no route matched (any path an outsider tries lands here, not in a label of its own). */
export const UNMATCHED_ROUTE = '__unmatched';
/** Probes and the scraper itself are not traffic. */
const UNMEASURED_ROUTES = new Set([METRICS_PATH, '/healthz', '/readyz']);

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics registry (what `GET /metrics` answers); register a service's own metrics here. */
    metrics: Registry;
  }
  interface FastifyRequest {
    /** The status of the first answer sent for this request; 0 until then. */
    sentStatus: number;
  }
}

export interface MetricsPluginOptions {
  registry: Registry;
  /** false: no `GET /metrics` on this app (the public edge answers it on its internal port). */
  route?: boolean;
}

/**
 * `GET /metrics` (Prometheus text format) and `http_request_duration_seconds{method, route, status_code}`.
 * `route` is the matched route PATTERN (`/product/:id`), never the raw URL, so ids do not multiply the
 * series; unmatched requests are `__unmatched`.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { registry, route = true }: MetricsPluginOptions) => {
    app.decorate('metrics', registry);
    const duration = metricOf(
      registry,
      'http_request_duration_seconds',
      () =>
        new Histogram({
          name: 'http_request_duration_seconds',
          help: 'HTTP requests by method, route pattern and status code, from arrival to the last byte sent',
          labelNames: ['method', 'route', 'status_code'],
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
          registers: [registry],
        }),
    );

    // The status the client got: a handler that answers twice (the second send fails) leaves Fastify's
    // reply.statusCode at 500 by the time onResponse runs, though the first answer went out. (A request
    // decoration rather than a WeakMap: no weak entry for the GC to trace per request.)
    app.decorateRequest('sentStatus', 0);
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.sentStatus === 0) request.sentStatus = reply.statusCode;
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      const route = (!request.is404 && request.routeOptions.url) || UNMATCHED_ROUTE;
      if (!UNMEASURED_ROUTES.has(route)) {
        const status = request.sentStatus || reply.statusCode;
        duration.observe(
          { method: request.method, route, status_code: String(status) },
          reply.elapsedTime / 1000,
        );
      }
      done();
    });

    if (route) app.get(METRICS_PATH, { schema: { hide: true } }, metricsHandler(registry));
  },
  { name: 'decor-metrics' },
);

/** `GET /metrics`: the registry in the Prometheus text format. */
export function metricsHandler(registry: Registry) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  };
}
