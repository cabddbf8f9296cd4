import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type CachedAnswer, ResponseCache } from '@decor/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The public pages (home, gallery, terms, inventory lists and product pages) answered as HTML
 * rendered on the server for a visitor (issue 17), so a phone paints the content from the first
 * answer instead of after the shell, the remote and the API have all arrived; the browser then
 * hydrates it. The renderer is the shell's server bundle (frontends/shell/dist-server/render.js,
 * built by infra's server-renderer.ts); it reads the API through this gateway in-process (inject),
 * so the catalogue cache serves it.
 *
 * Pages are cached (rendered and compressed once), cleared whenever the catalogue cache is (its
 * events), expiring with the same TTL; a render that started before a clear is not kept. A page
 * whose data failed, or any render error, falls back to the plain shell: the browser renders it.
 */

/** The bundle's API (frontends/shell/src/server/render.tsx). */
interface Renderer {
  useApi(fetchApi: (url: string) => Promise<ApiAnswer>): void;
  renderPage(url: string): Promise<RenderedPage | null>;
  /** What keeps a signed-in load from seeing (or hydrating) the visitor's page (shell's session-mark.ts). */
  sessionMark?: SessionMark;
}
interface SessionMark {
  /** A blocking script's source, served here and put in <head>. */
  script: string;
  /** Markup for <head> (its style). */
  style: string;
  /** Markup before the root (the loader a signed-in load shows). */
  boot: string;
  /** The type the page's entry scripts carry until the script starts them, after the first paint. */
  heldScriptType?: string;
}
interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}
interface RenderedPage {
  html: string;
  styles: string;
  state: string;
  preloadScripts: string[];
}

interface Page extends CachedAnswer {
  br: Buffer;
  gzip: Buffer;
  /** The `Link` header (firstPaintLinks). */
  link: string;
}

export const SERVER_RENDERER = path.join('shell', 'dist-server', 'render.js');
/** The shell's empty root (with its "Loading…" placeholder) that the page goes into. */
const ROOT = /<div id="root">(?:<div class="boot">[^<]*<\/div>)?<\/div>/;

/**
 * The shell's index.html with the rendered page in it: markup, antd's styles, data, preloads, and
 * (when the renderer has one) the session mark: its blocking script and style in <head>, its loader
 * before the root, and the shell's entry held until that script starts it (holdEntryScripts).
 */
export function composePage(
  template: string,
  page: RenderedPage,
  mark?: Omit<SessionMark, 'script'> & { src: string },
): string {
  const preloads = page.preloadScripts
    .map((src) => `<link rel="preload" href="${src}" as="script">`)
    .join('');
  // No paint until the root's markup is all parsed: a half-parsed page (a long gallery on a slow link
  // or a busy CPU) reflows as the rest arrives, a layout shift (CLS). Browsers without it ignore it.
  const renderBlock = '<link rel="expect" href="#root" blocking="render">';
  const head = `${renderBlock}${mark ? `<script src="${mark.src}"></script>${mark.style}` : ''}`;
  // Functions as replacements: the markup may hold `$&`-like sequences a string would expand.
  return holdEntryScripts(template, mark?.heldScriptType)
    .replace('</head>', () => `${head}${preloads}${page.styles}</head>`)
    .replace(
      ROOT,
      () =>
        `${mark?.boot ?? ''}<div id="root">${page.html}</div><script type="application/json" id="decor-state">${page.state}</script>`,
    );
}

/**
 * The template's entry scripts (`<script defer src=…>`) as elements no browser runs, which the
 * session mark's script starts once the page is painted (the shell's session-mark.ts says why).
 */
function holdEntryScripts(template: string, heldScriptType: string | undefined): string {
  if (!heldScriptType) return template;
  return template.replace(
    /<script\b[^>]*\bsrc="([^"]+)"[^>]*><\/script>/g,
    (_tag, src: string) => `<script type="${heldScriptType}" data-src="${src}"></script>`,
  );
}

/** A URL that may stand in a Link header as it is (no `<>`, `,`, `;`, quotes or spaces). */
const LINKABLE = /^[^<>,;"\s]+$/;

/**
 * What the first paint waits for, as a `Link` header of preloads: the browser's network side asks for
 * them as soon as the answer's headers arrive, instead of once the page's renderer has got to them in
 * the markup (60 ms after the answer on the loaded bench machine; the image is behind 55 KB of antd's
 * styles). They are the session mark's blocking script and the image React announced as the page's
 * largest paint (its `<link rel="preload" as="image" … fetchPriority="high">`). The entries are not:
 * held until the page is painted (composePage), they are no part of the first paint, and asked for
 * with it they took the wire and a core from it.
 */
export function firstPaintLinks(page: RenderedPage, markSrc?: string): string {
  const scripts = markSrc ? [markSrc] : [];
  const images = [...page.html.matchAll(/<link\b[^>]*>/g)]
    .map((m) => m[0])
    .filter(
      (tag) => /\brel="preload"/.test(tag) && /\bas="image"/.test(tag) && /\bfetchPriority="high"/i.test(tag),
    )
    .map((tag) => /\bhref="([^"]+)"/.exec(tag)?.[1]?.replaceAll('&amp;', '&') ?? '');
  return [
    ...scripts.filter((src) => LINKABLE.test(src)).map((src) => `<${src}>; rel=preload; as=script`),
    ...[...new Set(images)]
      .filter((src) => LINKABLE.test(src))
      .map((src) => `<${src}>; rel=preload; as=image; fetchpriority=high`),
  ].join(', ');
}

/** The session mark's script under a content-hashed name (cached for good, frontends.ts). */
function serveSessionMark(app: FastifyInstance, mark: SessionMark): string {
  const hash = createHash('sha256').update(mark.script).digest('hex').slice(0, 10);
  const src = `/session-mark.${hash}.js`;
  app.get(src, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(mark.script),
  );
  return src;
}

export interface PageRenderer {
  /** Answers the request with its server-rendered page; false when there is none (not public, failed). */
  serve(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Forget every page (the catalogue changed). */
  invalidate(): void;
}

export function pageRenderer(
  app: FastifyInstance,
  { dir, ttlMs }: { dir: string; ttlMs: number },
): PageRenderer | undefined {
  const bundle = path.join(dir, SERVER_RENDERER);
  const template = path.join(dir, 'shell', 'dist', 'index.html');
  if (!dir || !existsSync(bundle) || !existsSync(template)) return undefined;
  const renderer = createRequire(bundle)(bundle) as Renderer;
  renderer.useApi(async (url) => {
    const answer = await app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
    return { status: answer.statusCode, headers: answer.headers, body: answer.body };
  });
  const mark = renderer.sessionMark && {
    ...renderer.sessionMark,
    src: serveSessionMark(app, renderer.sessionMark),
  };
  // Bounded like the catalogue cache; a TTL of 0 (caching off) renders every time.
  const pages = new ResponseCache<Page>(ttlMs, 500, 64 * 1024 * 1024);
  const EMPTY: Page = { body: '', headers: {}, br: Buffer.alloc(0), gzip: Buffer.alloc(0), link: '' };

  async function render(pathname: string): Promise<Page> {
    let rendered: RenderedPage | null;
    try {
      rendered = await renderer.renderPage(pathname);
    } catch (err) {
      app.log.warn({ err, pathname }, 'server rendering failed; the browser renders the page');
      rendered = null;
    }
    if (!rendered) return EMPTY;
    const shell = readFileSync(template, 'utf8');
    const body = composePage(shell, rendered, mark);
    return {
      body,
      link: firstPaintLinks(rendered, mark?.src),
      headers: {},
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
      gzip: gzipSync(body),
    };
  }

  return {
    invalidate: () => pages.invalidate(),
    async serve(request, reply) {
      const pathname = request.url.split('?')[0] ?? '/';
      const page = await pages.get(pathname, () => render(pathname), { store: (p) => p !== EMPTY });
      if (page === EMPTY) return false;
      const accepts = String(request.headers['accept-encoding'] ?? '');
      const [encoding, payload] = /\bbr\b/.test(accepts)
        ? ['br', page.br]
        : /\bgzip\b/.test(accepts)
          ? ['gzip', page.gzip]
          : [undefined, page.body];
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding');
      if (page.link) reply.header('link', page.link);
      if (encoding) reply.header('content-encoding', encoding);
      await reply.send(payload);
      return true;
    },
  };
}
