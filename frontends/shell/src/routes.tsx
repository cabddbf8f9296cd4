/**
 * The one route table of the site (spec storefront §2, orders §2): each top-level path with its
 * screen, who may open it and its entries in the user menu. The router (AppFrame's AppRoutes), the
 * user menu (access.ts → UserMenu) and the list of server-rendered pages (public-pages.ts) are all
 * built from it; a screen's own sub-routes live in its feature's routes.tsx (or its remote's).
 */
import { PERMISSIONS, type Permission } from '@decor/contracts/rules';
import { Navigate } from '@decor/web-core/router';
import type { ReactElement } from 'react';
import { RemoteScreen } from './features/frame/components/RemoteScreen';
import { Callback, Gallery, Home, Orders, Reset, Tos } from './features/pages/routes';

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
  /** Who may open it (the Protected guard); absent: anyone, signed in or not. 'admin' admits superadmin too. */
  roles?: readonly Permission[];
  menu?: readonly MenuEntry[];
  serverRendered?: ServerRenderedKind;
}

const SIGNED_IN = PERMISSIONS;
const CUSTOMERS: readonly Permission[] = ['customer'];
const STAFF: readonly Permission[] = ['admin'];

export const ROUTES: readonly AppRoute[] = [
  { path: '/', screen: <Home />, serverRendered: 'home' },
  { path: '/gallery', screen: <Gallery />, serverRendered: 'gallery' },
  { path: '/tos', screen: <Tos />, serverRendered: 'tos' },
  { path: '/reset/:token', screen: <Reset /> },
  { path: '/callback', screen: <Callback /> },
  {
    path: '/inventory/*',
    screen: <RemoteScreen remote="storefront" module="Inventory" />,
    serverRendered: 'inventory',
  },
  {
    path: '/profile',
    screen: <RemoteScreen remote="storefront" module="Profile" />,
    roles: SIGNED_IN,
    menu: [{ label: 'Profile', to: '/profile', slot: 1 }],
  },
  {
    path: '/carts/*',
    screen: <RemoteScreen remote="storefront" module="Carts" />,
    roles: CUSTOMERS,
    menu: [{ label: 'Carts', to: '/carts', slot: 2 }],
  },
  {
    // Customers get the storefront's order screens, staff the admin remote's (pages/Orders).
    path: '/orders/*',
    screen: <Orders />,
    roles: SIGNED_IN,
    menu: [{ label: 'Orders', to: '/orders', slot: 3 }],
  },
  {
    path: '/checkout/*',
    screen: <RemoteScreen remote="storefront" module="Checkout" />,
    roles: CUSTOMERS,
    menu: [{ label: 'Checkout', to: '/checkout/cart', slot: 4 }],
  },
  {
    path: '/admin/*',
    screen: <RemoteScreen remote="admin" module="BackOffice" />,
    roles: STAFF,
    menu: [
      { label: 'Users', to: '/admin/users', slot: 2 },
      { label: 'Availability', to: '/admin/availability', slot: 4 },
    ],
  },
  { path: '/index.html', screen: <Navigate to="/" replace /> },
  // Any other path shows the home screen.
  { path: '*', screen: <Home /> },
];
