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
 * Up to the query: a percent-encoded letter, digit, '-', '_' or '~' (RFC 3986's unreserved characters;
 * '.' is refused above). No client needs one, and the router decodes them: `/%61pi/orders/events` is
 * routed as `/api/orders/events` while every prefix check that reads the raw URL (ended sessions, the
 * path guard above, the docs' staff check, the CSP) sees no `/api`.
 */
const ENCODED_UNRESERVED = /^[^?]*?%(?:3[0-9]|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]|2d|5f|7e)/i;

/** onRequest, first of all: refuses a path that spells a plain character encoded, on every path. */
export function refuseDisguisedPaths(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (!ENCODED_UNRESERVED.test(request.url)) done();
  else reply.code(400).send({ message: INVALID_PATH });
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
