/**
 * What the access log of every process (createServiceApp's request serializer) keeps of a URL: the
 * secrets some URLs carry are replaced by `[redacted]`, as nothing else protects a log file.
 *
 * - `/reset/<token>`: a reset or welcome link's page;
 * - `code` and `state` of the QuickBooks sign-in's return (`/callback`, `/api/auth/accessToken`);
 * - `ticket` of the live order stream (`/api/orders/events?ticket=`), which an EventSource can only
 *   send in the URL.
 *
 * The parameters are redacted on every path: a name decoded the way the query parser decodes it
 * (`co%64e`) counts too, and a few harmless values more in [redacted] cost nothing.
 */
const SECRET_PARAMS = new Set(['code', 'state', 'ticket']);
const REDACTED = '[redacted]';

export function redactSecretPaths(url: string): string {
  const path = url.replace(/\/reset\/[^/?#]*/g, `/reset/${REDACTED}`);
  const query = path.indexOf('?');
  if (query < 0) return path;
  const hash = path.indexOf('#', query);
  const end = hash < 0 ? path.length : hash;
  const params = path
    .slice(query + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAMS.has(decodedName(name).toLowerCase()) ? `${name}=${REDACTED}` : pair;
    });
  return `${path.slice(0, query + 1)}${params.join('&')}${path.slice(end)}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Fastify's default request log fields, with the URL's secrets redacted. */
export function redactedRequestLog(request: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: redactSecretPaths(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
