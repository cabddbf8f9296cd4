import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers on every answer (refusals included), computed once: with the
 * Content-Security-Policy left to src/csp.ts they depend on nothing in the request, and
 * @fastify/helmet rebuilt helmet's middleware chain and ran a dozen of them on each request.
 */
export const HELMET_OPTIONS: HelmetOptions = {
  // The shell loads remotes and images from its own origin and the S3 host: the gateway's own
  // Content-Security-Policy (src/csp.ts) says so. Everything else helmet offers stays on.
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
};

/** The headers helmet sets with these options, read from one run against a recording response. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions = HELMET_OPTIONS): void {
  const headers = helmetHeaders(options);
  if (Object.keys(headers).length === 0) throw new Error('helmet set no header: its API changed');
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
