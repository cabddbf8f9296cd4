/**
 * Who may open what, read from the route table (src/routes.tsx) — the shell's counterpart of
 * ant-design-pro's access.ts. The roles rule itself is @decor/contracts' (through web-core's hasRole).
 */
import { hasRole } from '@decor/web-core';
import { matchPath } from '@decor/web-core/router';
import { type AppRoute, ROUTES } from './routes';

/** The table's route that serves a path (its paths do not overlap; `*` only when none other does). */
export function routeOf(pathname: string, routes: readonly AppRoute[] = ROUTES): AppRoute | undefined {
  const specific = routes.find((route) => route.path !== '*' && matchPath(route.path, pathname));
  return specific ?? routes.find((route) => route.path === '*');
}

/** Whether a viewer (null: a visitor) may open a path; the Protected guard applies the same roles. */
export function canOpen(
  permissions: string | null | undefined,
  pathname: string,
  routes: readonly AppRoute[] = ROUTES,
): boolean {
  const route = routeOf(pathname, routes);
  return !!route && (!route.roles || hasRole(permissions, route.roles));
}

/** The user menu's entries for a role (spec §2), in their slots; Logout is the menu's own. */
export function menuFor(
  permissions: string | null | undefined,
  routes: readonly AppRoute[] = ROUTES,
): { key: string; label: string }[] {
  return routes
    .filter((route) => route.roles && hasRole(permissions, route.roles))
    .flatMap((route) => route.menu ?? [])
    .sort((a, b) => a.slot - b.slot)
    .map((entry) => ({ key: entry.to, label: entry.label }));
}
