import type { Readable } from 'node:stream';
import { Counter, type ServiceApp } from '@decor/kit';
import { ROUTES, type Route } from './routing-table';

/**
 * The proxy's side of the gateway's `/metrics` (the kit already times every request by route pattern,
 * `http_request_duration_seconds`, and adds the process metrics):
 * - `gateway_upstream_responses_total{service, route, status_code}`: answers that came from the
 *   service, by the status it answered (`route` is the routing-table entry, e.g. `/api/product`);
 * - `gateway_upstream_failures_total{service, route, status_code}`: the 503 (unreachable) and 504 (no
 *   answer in time) the gateway gave because the service failed.
 * Answers the gateway gives itself (401/403/429 refusals, cached catalogue reads) are in neither.
 */
export function upstreamMetrics(app: ServiceApp, { apiPrefix }: { apiPrefix: string }): void {
  const labelNames = ['service', 'route', 'status_code'] as const;
  const responses = new Counter({
    name: 'gateway_upstream_responses_total',
    help: 'Answers proxied from a service, by service, routing-table entry and the status the service answered',
    labelNames,
    registers: [app.metrics],
  });
  const failures = new Counter({
    name: 'gateway_upstream_failures_total',
    help: 'Requests the gateway answered 503 (service unreachable) or 504 (no answer in time) itself',
    labelNames,
    registers: [app.metrics],
  });
  const tableEntryOf = tableEntries(apiPrefix);

  // Whether what went out first came from the service: @fastify/reply-from sends the upstream's body as
  // a stream, what the gateway says itself is not one. Its status is the kit's `request.sentStatus`
  // (first: on a refused connection the proxy reports the failure twice, and the second, failing send
  // leaves reply.statusCode at 500). The kit's onSend hook, registered before this one, has set it.
  app.decorateRequest('sentFromUpstream', null);
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.sentFromUpstream === null) request.sentFromUpstream = isStream(payload);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const entry = request.is404 ? undefined : tableEntryOf(request.routeOptions.url);
    const status = request.sentStatus;
    if (entry && status !== 0 && (request.sentFromUpstream || status === 503 || status === 504)) {
      const labels = { service: entry.service, route: apiPrefix + entry.prefix, status_code: String(status) };
      if (request.sentFromUpstream) responses.inc(labels);
      else failures.inc(labels);
    }
    done();
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether the first answer sent came from the service (null until one is sent). */
    sentFromUpstream: boolean | null;
  }
}

/** Route pattern (`/api/product/*`, `/api/product/`) → the routing-table entry it proxies, if any. */
function tableEntries(apiPrefix: string): (url: string | undefined) => Route | undefined {
  const byPrefix = new Map(ROUTES.map((r) => [apiPrefix + r.prefix, r]));
  const known = new Map<string, Route | undefined>();
  return (url) => {
    if (url === undefined || !url.startsWith(apiPrefix)) return undefined;
    if (!known.has(url)) known.set(url, byPrefix.get(url.replace(/\/\*$/, '').replace(/\/$/, '')));
    return known.get(url);
  };
}

function isStream(payload: unknown): payload is Readable {
  return typeof (payload as Readable | null)?.pipe === 'function';
}
