/**
 * The one route table of the site (spec storefront §2, orders §2): each top-level path with its
 * screen, who may open it and its entries in the user menu. The router (AppFrame's AppRoutes), the
 * user menu (shared/access.ts → UserMenu) and the list of server-rendered pages (public-pages.ts) are all
 * built from it; a screen's own sub-routes live in its feature's routes.tsx (or its remote's).
 */
import { ACCESS_ROLES, type AccessRole } from '@decor/contracts/rules';
import { Navigate } from '@decor/web-core/router';
import { Callback, Gallery, Home, Orders, Reset, Tos } from './features/pages/routes';
import type { AppRoute } from './shared/access';
import { RemoteScreen } from './shared/RemoteScreen';

// A row's shape (and the access rules over a table) are shared/access.ts'.
export type { AppRoute, MenuEntry, ServerRenderedKind } from './shared/access';

const SIGNED_IN = ACCESS_ROLES;
const CUSTOMERS: readonly AccessRole[] = ['customer'];
const STAFF: readonly AccessRole[] = ['staff'];

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
      // Issue 30: the deposit, acceptance period and rental agreement (the admin remote's settings).
      { label: 'Settings', to: '/admin/settings/acceptance', slot: 5 },
    ],
  },
  { path: '/index.html', screen: <Navigate to="/" replace /> },
  // Any other path shows the home screen.
  { path: '*', screen: <Home /> },
];
