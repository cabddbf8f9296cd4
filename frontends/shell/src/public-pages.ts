/**
 * The public pages rendered on the server for visitors (issue 17) and hydrated in the browser: home,
 * gallery, the terms, and the inventory (landing, a subcategory's list, a product). Every other path
 * (signed-in screens, reset links, unknown paths) is the client-rendered shell as before. Which
 * paths they are is the route table's (`serverRendered`, src/routes.tsx).
 */
import { ROUTES, type ServerRenderedKind } from './routes';

export type PublicPage =
  | { kind: Exclude<ServerRenderedKind, 'inventory'> }
  | { kind: 'inventory'; category?: string; subcategory?: string; productId?: string };

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The table's server-rendered route a path is, matched exactly (case and trailing slash count, unlike
 * the router): `/gallery` is the path itself, `/inventory/*` that path or below it.
 */
function serverRenderedRoute(pathname: string): { kind: ServerRenderedKind; base: string } | null {
  for (const { path, serverRendered: kind } of ROUTES) {
    if (!kind) continue;
    const base = path.endsWith('/*') ? path.slice(0, -2) : path;
    if (pathname === base || (base !== path && pathname.startsWith(`${base}/`))) return { kind, base };
  }
  return null;
}

export function publicPageOf(pathname: string): PublicPage | null {
  const route = serverRenderedRoute(pathname);
  if (!route) return null;
  if (route.kind !== 'inventory') return { kind: route.kind };
  const segments = pathname.slice(route.base.length).split('/').filter(Boolean).map(decoded);
  if (segments.some((s) => s === null) || segments.length > 3) return null;
  const [category, subcategory, productId] = segments as string[];
  // /inventory/<category> alone is the landing screen, as in the storefront's routes.
  if (!subcategory) return { kind: 'inventory' };
  return { kind: 'inventory', category, subcategory, ...(productId ? { productId } : {}) };
}
