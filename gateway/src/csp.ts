import type { FastifyInstance } from 'fastify';

/**
 * Content-Security-Policy of everything the gateway serves outside /api: the shell's pages, the
 * remotes' entries and chunks, remotes.json. Only the product's own origin runs script (the shell,
 * and the remotes module federation loads from /remotes/<name>/; no inline script, no eval), images
 * come from here and the image host (S3_PUBLIC_URL), and the browser talks to here (API, order
 * stream) and to the S3 endpoint it PUTs presigned uploads to. The one page framed is the payment
 * provider's card entry (issue 30: the accept screen): its origin in `frame-src` only, so card details
 * are typed into the provider's page and never into ours.
 *
 * Styles allow 'unsafe-inline' (styles only): antd's CSS-in-JS could take a nonce through
 * ConfigProvider `csp`, but @rc-component's scroll locker (every Modal and Drawer) and scrollbar
 * measure inject <style> elements without it, and the shell's index.html carries its own <style>.
 *
 * /api answers JSON, a browser renders none of it, except two HTML pages with a policy of their own
 * (apiPagePolicy): the API docs (swagger-ui) and the queue board (Bull Board, proxied to accounting-sync).
 */
export interface CspSources {
  /** Where browsers load product images from, bucket included (e.g. http://127.0.0.1:4569/decor-images). */
  imageBaseUrl: string;
  /** Where browsers PUT presigned uploads (the S3 endpoint, no bucket); the image host's origin when unset. */
  uploadEndpoint?: string;
  /** The payment provider's card-entry page (PAYMENTS_FRAME_URL); unset: only our own pages may be framed, as before. */
  paymentsFrameUrl?: string;
}

/** A source expression for a base URL: its origin plus its path as a folder (`…/decor-images/`). */
function folderSource(url: string): string {
  const u = new URL(url);
  const pathname = u.pathname.endsWith('/') ? u.pathname : `${u.pathname}/`;
  return `${u.origin}${pathname === '/' ? '' : pathname}`;
}

export function contentSecurityPolicy({
  imageBaseUrl,
  uploadEndpoint,
  paymentsFrameUrl,
}: CspSources): string {
  const images = folderSource(imageBaseUrl);
  const uploads = new URL(uploadEndpoint ?? imageBaseUrl).origin;
  // Only the origin: the frame's page carries our origin in its query, which varies. A path is a
  // page of the gateway itself (Stripe's card frame), which 'self' already allows.
  const frames =
    paymentsFrameUrl && !paymentsFrameUrl.startsWith('/') ? [new URL(paymentsFrameUrl).origin] : [];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    // data: the shell's empty favicon (`data:,`) and antd's inline icons; blob: previews of files
    // picked for upload before they are sent.
    ['img-src', "'self'", 'data:', 'blob:', images],
    ['connect-src', "'self'", uploads],
    ['font-src', "'self'", 'data:'],
    ['frame-src', "'self'", ...frames],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'self'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

/** The HTML pages under /api: the API docs and the queue board, each with its scripts and data. */
export const API_PAGES = ['/api/docs', '/api/admin/queues'] as const;

/**
 * The policy of the API pages: scripts, styles and data from the gateway only (swagger-ui and Bull
 * Board ship their own files, and neither runs inline script; the board's inline config is a JSON
 * block, not script). Styles allow 'unsafe-inline' for the board's loading screen and the widgets'
 * style attributes; the board's Google Fonts stylesheet is left out (the system font stands in), as
 * is swagger-ui's validator badge from validator.swagger.io. No framing, no forms elsewhere.
 */
export function apiPagePolicy(): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'none'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

/** Sets the pages' policy on every answer outside /api (pages, assets, misses alike), and the API pages' on theirs. */
export function registerCsp(app: FastifyInstance, sources: CspSources): void {
  const policy = contentSecurityPolicy(sources);
  const apiPages = apiPagePolicy();
  // `done` rather than async, like the gateway's other per-request hooks: no promise per answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    // A page with a policy of its own (the Stripe card frame, src/card-frame.ts) keeps it.
    if (!isApiPath(request.url)) {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', policy);
    } else if (isApiPage(request.url)) reply.header('content-security-policy', apiPages);
    done(null, payload);
  });
}

/** `/api/docs`, `/api/docs/…`, `/api/docs?…`, likewise the queue board (its proxied answers included). */
function isApiPage(url: string): boolean {
  return API_PAGES.some((page) => url.startsWith(page) && isEndOfSegment(url, page.length));
}

/** `/api`, `/api/…` or `/api?…`: the JSON API, which a browser never renders. */
function isApiPath(url: string): boolean {
  return url.startsWith('/api') && isEndOfSegment(url, 4);
}

const isEndOfSegment = (url: string, at: number) => url.length === at || url[at] === '/' || url[at] === '?';
