/**
 * Who may open what, read from a route table (the site's is src/routes.tsx) — the shell's counterpart
 * of ant-design-pro's access.ts. The table is handed in (the frame gets it from the app), so shared code
 * and the features never import the table, which imports the features' screens. The roles rule itself
 * is @decor/contracts' (through web-core's hasRole).
 */
import type { AccessRole } from '@decor/contracts/rules';
import { hasRole } from '@decor/web-core';
import { matchPath } from '@decor/web-core/router';
import type { ReactElement } from 'react';

/** An entry of the user menu; `slot` is its place (spec §2: Profile, then Carts/Users, Orders, then Checkout/Availability). */
export interface MenuEntry {
  label: string;
  to: string;
  slot: number;
}

/** The public pages rendered on the server for visitors (issue 17). */
export type ServerRenderedKind = 'home' | 'gallery' | 'tos' | 'inventory';

export interface AppRoute {
  /** A react-router path (`/*` for a screen with routes of its own). */
  path: string;
  screen: ReactElement;
  /** Who may open it (the Protected guard); absent: anyone, signed in or not. 'staff' is admin and superadmin. */
  roles?: readonly AccessRole[];
  menu?: readonly MenuEntry[];
  serverRendered?: ServerRenderedKind;
}

/** The table's route that serves a path (its paths do not overlap; `*` only when none other does). */
export function routeOf(pathname: string, routes: readonly AppRoute[]): AppRoute | undefined {
  const specific = routes.find((route) => route.path !== '*' && matchPath(route.path, pathname));
  return specific ?? routes.find((route) => route.path === '*');
}

/** Whether a viewer (null: a visitor) may open a path; the Protected guard applies the same roles. */
export function canOpen(
  permissions: string | null | undefined,
  pathname: string,
  routes: readonly AppRoute[],
): boolean {
  const route = routeOf(pathname, routes);
  return !!route && (!route.roles || hasRole(permissions, route.roles));
}

/** The user menu's entries for a role (spec §2), in their slots; Logout is the menu's own. */
export function menuFor(
  permissions: string | null | undefined,
  routes: readonly AppRoute[],
): { key: string; label: string }[] {
  return routes
    .filter((route) => route.roles && hasRole(permissions, route.roles))
    .flatMap((route) => route.menu ?? [])
    .sort((a, b) => a.slot - b.slot)
    .map((entry) => ({ key: entry.to, label: entry.label }));
}
