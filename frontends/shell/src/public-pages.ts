/**
 * The public pages rendered on the server for visitors (issue 17) and hydrated in the browser: home,
 * gallery, the terms, and the inventory (landing, a subcategory's list, a product). Every other path
 * (signed-in screens, reset links, unknown paths) is the client-rendered shell as before.
 */
export type PublicPage =
  | { kind: 'home' | 'gallery' | 'tos' }
  | { kind: 'inventory'; category?: string; subcategory?: string; productId?: string };

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function publicPageOf(pathname: string): PublicPage | null {
  if (pathname === '/') return { kind: 'home' };
  if (pathname === '/gallery') return { kind: 'gallery' };
  if (pathname === '/tos') return { kind: 'tos' };
  if (pathname !== '/inventory' && !pathname.startsWith('/inventory/')) return null;
  const segments = pathname.slice('/inventory'.length).split('/').filter(Boolean).map(decoded);
  if (segments.some((s) => s === null) || segments.length > 3) return null;
  const [category, subcategory, productId] = segments as string[];
  // /inventory/<category> alone is the landing screen, as in the storefront's routes.
  if (!subcategory) return { kind: 'inventory' };
  return { kind: 'inventory', category, subcategory, ...(productId ? { productId } : {}) };
}
