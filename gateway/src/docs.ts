import { bearerToken } from '@decor/kit';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ServiceName } from './routing-table';
import type { UpstreamPool } from './upstream-pool';

type OpenApiDoc = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
};

const REFRESH_AFTER_MS = 15_000;

/** The answer to a docs request without a session, where the docs are for staff (production). */
export const DOCS_STAFF_ONLY =
  'The API documentation is for staff: send your session token as Authorization: Bearer <token>';

/**
 * One OpenAPI document for the whole public API at /api/docs: every service publishes the
 * document Fastify generates from its route schemas at /openapi.json; the gateway merges them,
 * puts each path under /api and tags it with its service. With `staffOnly` (production) every
 * /api/docs request needs a staff session: the map of every call is no help to a visitor.
 */
export async function apiDocs(
  app: FastifyInstance,
  {
    upstreams,
    own,
    staffOnly = false,
  }: { upstreams: Record<ServiceName, UpstreamPool>; own?: Partial<OpenApiDoc>; staffOnly?: boolean },
) {
  let merged = emptyDoc();
  let fetchedAt = 0;

  const refresh = async (): Promise<void> => {
    const doc = emptyDoc();
    // The gateway's own endpoints (live order status), paths without /api.
    if (own) mergeInto(doc, 'gateway', own);
    await Promise.all(
      (Object.entries(upstreams) as [ServiceName, UpstreamPool][]).map(async ([service, pool]) => {
        try {
          const res = await fetch(`${pool.next()}/openapi.json`, { signal: AbortSignal.timeout(2000) });
          if (res.ok) mergeInto(doc, service, (await res.json()) as Partial<OpenApiDoc>);
        } catch (err) {
          app.log.debug({ err, service }, 'service OpenAPI document not available');
        }
      }),
    );
    merged = doc;
    fetchedAt = Date.now();
  };

  // createServiceApp registered @fastify/swagger; the UI shows the merged document instead of the gateway's own.
  await app.register(async (scope) => {
    if (staffOnly) {
      const staff = app.requireRole('staff');
      scope.addHook('onRequest', async (request, reply) => {
        // A browser opening the page sends no session: say what the docs need rather than 'Authentication required'.
        if (!bearerToken(request)) return reply.code(401).send({ message: DOCS_STAFF_ONLY });
        await staff.call(app, request, reply);
      });
    }
    scope.addHook('onRequest', async (request) => {
      if (request.url.startsWith('/api/docs/json') && Date.now() - fetchedAt > REFRESH_AFTER_MS)
        await refresh();
    });
    await scope.register(swaggerUi, {
      routePrefix: '/api/docs',
      transformSpecification: () => merged,
      transformSpecificationClone: false,
    });
  });
}

function emptyDoc(): OpenApiDoc {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Decor rental platform API',
      version: '1',
      description:
        'Public API behind the gateway. Sessions: `Authorization: Bearer <token>` (sign-in returns it in the `token` header). ' +
        'Lists: `limit` (default 20, max 100), `offset`, `order=<field>:<ASC|DESC>`, `like=<field>:<prefix>`, `gt=<field>:<number>`, ' +
        'plain `<field>=<value>` filters; the total is in the `total_count` header. Errors: `{ "message": "…" }`.',
    },
    paths: {},
    components: {
      schemas: {},
      securitySchemes: { session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    tags: [],
  };
}

export function mergeInto(
  target: OpenApiDoc,
  service: ServiceName | 'gateway',
  doc: Partial<OpenApiDoc>,
): void {
  target.tags?.push({ name: service });
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (path === '/openapi.json' || path === '/healthz' || path === '/readyz') continue;
    const operations = item as Record<string, { tags?: string[] }>;
    for (const op of Object.values(operations)) op.tags = [service];
    target.paths[`/api${path}`] = operations;
  }
  Object.assign(target.components.schemas, doc.components?.schemas ?? {});
}
