import type { FastifyInstance } from 'fastify';

/**
 * Content-Security-Policy of everything the gateway serves outside /api: the shell's pages, the
 * remotes' entries and chunks, remotes.json. Only the product's own origin runs script (the shell,
 * and the remotes module federation loads from /remotes/<name>/; no inline script, no eval), images
 * come from here and the image host (S3_PUBLIC_URL), and the browser talks to here (API, order
 * stream) and to the S3 endpoint it PUTs presigned uploads to.
 *
 * Styles allow 'unsafe-inline' (styles only): antd's CSS-in-JS could take a nonce through
 * ConfigProvider `csp`, but @rc-component's scroll locker (every Modal and Drawer) and scrollbar
 * measure inject <style> elements without it, and the shell's index.html carries its own <style>.
 *
 * /api is left alone: JSON answers, and the API docs page (swagger-ui) brings its own scripts.
 */
export interface CspSources {
  /** Where browsers load product images from, bucket included (e.g. http://127.0.0.1:4569/decor-images). */
  imageBaseUrl: string;
  /** Where browsers PUT presigned uploads (the S3 endpoint, no bucket); the image host's origin when unset. */
  uploadEndpoint?: string;
}

/** A source expression for a base URL: its origin plus its path as a folder (`…/decor-images/`). */
function folderSource(url: string): string {
  const u = new URL(url);
  const pathname = u.pathname.endsWith('/') ? u.pathname : `${u.pathname}/`;
  return `${u.origin}${pathname === '/' ? '' : pathname}`;
}

export function contentSecurityPolicy({ imageBaseUrl, uploadEndpoint }: CspSources): string {
  const images = folderSource(imageBaseUrl);
  const uploads = new URL(uploadEndpoint ?? imageBaseUrl).origin;
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    // data: the shell's empty favicon (`data:,`) and antd's inline icons; blob: previews of files
    // picked for upload before they are sent.
    ['img-src', "'self'", 'data:', 'blob:', images],
    ['connect-src', "'self'", uploads],
    ['font-src', "'self'", 'data:'],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'self'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

/** Sets the policy on every answer outside /api (pages, assets, misses alike). */
export function registerCsp(app: FastifyInstance, sources: CspSources): void {
  const policy = contentSecurityPolicy(sources);
  // `done` rather than async, like the gateway's other per-request hooks: no promise per answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isApiPath(request.url)) reply.header('content-security-policy', policy);
    done(null, payload);
  });
}

/** `/api`, `/api/…` or `/api?…`: the JSON API, which a browser never renders. */
function isApiPath(url: string): boolean {
  return url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?');
}
