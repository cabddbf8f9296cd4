import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NotFoundHandler } from '@decor/kit';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PageRenderer } from './page-render';

/** Remotes are served under /remotes/<name>/ so they never collide with the shell's routes (/admin/*). */
export const REMOTES = ['storefront', 'admin'] as const;

const distOf = (dir: string, app: string) => (dir ? path.join(dir, app, 'dist') : '');
const hasShell = (dir: string) => !!dir && existsSync(path.join(distOf(dir, 'shell'), 'index.html'));

/**
 * Local runs: the gateway serves the built frontends (shell at /, remotes under /remotes/<name>/).
 * In production each frontend is its own container and FRONTENDS_DIR is empty.
 */
export async function frontends(app: FastifyInstance, { dir }: { dir: string }): Promise<void> {
  for (const remote of REMOTES) {
    const dist = distOf(dir, remote);
    if (dist && existsSync(dist)) {
      await app.register(fastifyStatic, {
        root: dist,
        prefix: `/remotes/${remote}/`,
        decorateReply: false,
        preCompressed: true,
        setHeaders: immutableWhenHashed,
      });
    }
  }
  if (hasShell(dir))
    await app.register(fastifyStatic, {
      root: distOf(dir, 'shell'),
      prefix: '/',
      wildcard: false,
      // `/` is a page like the others (server-rendered, pageOrNotFound), not the bare index.html.
      index: false,
      // Content-hashed names never change: browsers keep them. The rest (remotes.json) is revalidated.
      setHeaders: immutableWhenHashed,
      // .br/.gz copies written at build (infra/stack/src/precompress.ts), chosen by Accept-Encoding.
      preCompressed: true,
    });
}

/**
 * `main.0123456789.js`: a file name carrying the build's content hash (webpack's [contenthash:10]),
 * or its copy compressed at build (`….js.br`, `….js.gz`), which is what @fastify/static names here
 * when the browser accepts it — that is, for every browser.
 */
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+(?:\.(?:br|gz))?$/;

function immutableWhenHashed(reply: FastifyReply, file: string): void {
  if (HASHED.test(file)) reply.header('cache-control', 'public, max-age=31536000, immutable');
}

/**
 * Client-side routes (/inventory/…, /reset/<token>) load the shell, the public ones rendered on the
 * server when the renderer is built (page-render.ts); API and asset misses stay 404.
 */
export function pageOrNotFound(dir: string, pages?: () => PageRenderer | undefined): NotFoundHandler {
  const shellDist = distOf(dir, 'shell');
  const serveShell = hasShell(dir);
  return (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const wantsPage =
      // HEAD as GET (link checkers, uptime probes): Node sends its headers without the body.
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/remotes/') &&
      // A page has no file extension, or is asked for as HTML: /reset/<token> carries a JWT (dots).
      (!path.extname(pathname) || String(request.headers.accept ?? '').includes('text/html'));
    if (!wantsPage) return reply.code(404).send({ message: 'Not found' });
    const renderer = pages?.();
    if (renderer) {
      return renderer.serve(request, reply).then((served) => (served ? reply : sendShell(reply)));
    }
    return sendShell(reply);
  };
  function sendShell(reply: FastifyReply) {
    // Read here rather than reply.sendFile: @fastify/static decorates the reply only inside the
    // frontends plugin's scope, and this handler is the root's. Read per request: a rebuild changes it.
    if (serveShell) {
      return reply
        .type('text/html')
        .header('cache-control', 'no-cache')
        .send(readFileSync(path.join(shellDist, 'index.html')));
    }
    return reply.type('text/html').send(PLACEHOLDER_PAGE);
  }
}

const PLACEHOLDER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Decor rentals</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto">
<h1>Decor rentals API gateway</h1>
<p>The frontends are not built yet. The API is at <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;
