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

  // What went out first, and whether it came from the service: @fastify/reply-from sends the upstream's
  // body as a stream, what the gateway says itself is not one. (First: on a refused connection the proxy
  // reports the failure twice, and the second, failing send leaves reply.statusCode at 500.)
  const sent = new WeakMap<object, { upstream: boolean; status: number }>();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!sent.has(request)) sent.set(request, { upstream: isStream(payload), status: reply.statusCode });
    done(null, payload);
  });
  app.addHook('onResponse', async (request) => {
    const entry = request.is404 ? undefined : tableEntryOf(request.routeOptions.url);
    const answer = sent.get(request);
    if (!entry || !answer) return;
    const labels = {
      service: entry.service,
      route: apiPrefix + entry.prefix,
      status_code: String(answer.status),
    };
    if (answer.upstream) responses.inc(labels);
    else if (answer.status === 503 || answer.status === 504) failures.inc(labels);
  });
}

/** Route pattern (`/api/product/*`, `/api/product/`) → the routing-table entry it proxies, if any. */
function tableEntries(apiPrefix: string): (url: string | undefined) => Route | undefined {
  const byPrefix = new Map(ROUTES.map((r) => [apiPrefix + r.prefix, r]));
  const known = new Map<string, Route | undefined>();
  return (url) => {
    if (url === undefined) return undefined;
    if (!known.has(url)) known.set(url, byPrefix.get(url.replace(/\/\*$/, '').replace(/\/$/, '')));
    return known.get(url);
  };
}

function isStream(payload: unknown): payload is Readable {
  return typeof (payload as Readable | null)?.pipe === 'function';
}
