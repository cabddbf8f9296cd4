import type { FastifyReply, FastifyRequest } from 'fastify';

export const INVALID_PATH = 'Invalid path';

/**
 * Up to the query: backslashes (WHATWG URLs read them as '/'), encoded dots, slashes, backslashes
 * and NUL; an empty segment before another (`//`); a `.` or `..` segment. One pass, no array per
 * request (it runs on every /api call).
 */
const UNSAFE = /^[^?]*?(?:\\|%2e|%2f|%5c|%00|\/\/|\/\.\.?(?:[/?]|$))/i;

/**
 * Whether a path could name something other than what the router matched once a service (or the
 * URL parser of the call to it) normalises it: `.` and `..` segments, empty ones (`//`), and the
 * characters above. `/api/product/..\metrics` would be the catalogue's `/metrics`, and
 * `/api/auth/./user` the sign-in without its rate limit. No API path needs any of them.
 */
export function isUnsafePath(url: string): boolean {
  return UNSAFE.test(url);
}

/** onRequest: refuses such paths under `apiPrefix` with 400 before any route, limit or cache sees them. */
export function refuseUnsafePaths(apiPrefix: string) {
  const under = `${apiPrefix}/`;
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (!request.url.startsWith(under) || !isUnsafePath(request.url)) done();
    else reply.code(400).send({ message: INVALID_PATH });
  };
}

/**
 * The service's path for a proxied request, built from what the route matched (its prefix and the
 * wildcard, each segment encoded again) rather than from the raw URL; the query is added by the proxy.
 */
export function upstreamPath(prefix: string, request: FastifyRequest): string {
  const rest = (request.params as { '*'?: string })['*'];
  if (rest === undefined) return request.routeOptions.url?.endsWith('/') ? `${prefix}/` : prefix;
  return `${prefix}/${rest.split('/').map(encodeURIComponent).join('/')}`;
}
