import {
  fetchCategories,
  isStaff,
  QboSessionBanner,
  setActiveSubCategory,
  setOpenedCategory,
  useAppDispatch,
  useAppSelector,
  validateSession,
} from '@decor/web-core';
import { Link, Navigate, Route, Routes, useLocation } from '@decor/web-core/router';
import { Layout } from '@decor/web-core/ui';
import { lazy, Suspense, useEffect } from 'react';
import { ContactButton, ContactProvider } from '../../contact/components/contact';
import { ErrorBanner } from './ErrorBanner';
import { PageLoader } from './PageLoader';
import { Protected } from './Protected';
import { preloadable } from './preloadable';
import { AreaErrorBoundary, RemoteScreen } from './RemoteScreen';
import { BRAND, TopBar } from './TopBar';

// Code split per route: each page is its own chunk, loaded when first visited (the public pages
// also ahead of hydrating their server-rendered HTML: preloadable).
export const Home = preloadable(() => import('../../pages/components/Home'));
export const Gallery = preloadable(() => import('../../pages/components/Gallery'));
export const Tos = preloadable(() => import('../../pages/components/Tos'));
const Reset = lazy(() => import('../../pages/components/Reset'));
const Callback = lazy(() => import('../../pages/components/Callback'));
const Orders = lazy(() => import('../../pages/components/Orders'));

const ALL_ROLES = ['customer', 'admin', 'superadmin'] as const;

/** On start: load the categories, and validate a stored session token (except on reset pages). */
function useStartup(): void {
  const dispatch = useAppDispatch();
  const token = useAppSelector((s) => s.session.token);
  // A server-rendered inventory page brought them.
  const haveCategories = useAppSelector((s) => s.sideNav.categories.length > 0);
  const { pathname } = useLocation();
  const onReset = pathname.startsWith('/reset');
  // Once per start.
  useEffect(() => {
    if (!haveCategories) dispatch(fetchCategories());
    if (token && !onReset) dispatch(validateSession());
  }, []);
}

/** Leaving the inventory clears the side navigation's selection (spec §2). */
function useClearSelectionOutsideInventory(): void {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const inInventory = pathname.startsWith('/inventory');
  useEffect(() => {
    if (!inInventory) {
      dispatch(setOpenedCategory(null));
      dispatch(setActiveSubCategory(null));
    }
  }, [inInventory, dispatch]);
}

/** Staff see the QuickBooks session notice wherever they are (a screen with its own takes over). */
function StaffQboSessionBanner() {
  const staff = useAppSelector((s) => isStaff(s.session.user?.permissions));
  return staff ? <QboSessionBanner placement="frame" /> : null;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/gallery" element={<Gallery />} />
      <Route path="/tos" element={<Tos />} />
      <Route path="/reset/:token" element={<Reset />} />
      <Route path="/callback" element={<Callback />} />
      <Route path="/inventory/*" element={<RemoteScreen remote="storefront" module="Inventory" />} />
      <Route
        path="/checkout/*"
        element={
          <Protected roles={['customer']}>
            <RemoteScreen remote="storefront" module="Checkout" />
          </Protected>
        }
      />
      <Route
        path="/carts/*"
        element={
          <Protected roles={['customer']}>
            <RemoteScreen remote="storefront" module="Carts" />
          </Protected>
        }
      />
      <Route
        path="/profile"
        element={
          <Protected roles={ALL_ROLES}>
            <RemoteScreen remote="storefront" module="Profile" />
          </Protected>
        }
      />
      <Route
        path="/orders/*"
        element={
          <Protected roles={ALL_ROLES}>
            <Orders />
          </Protected>
        }
      />
      <Route
        path="/admin/*"
        element={
          <Protected roles={['admin']}>
            <RemoteScreen remote="admin" module="BackOffice" />
          </Protected>
        }
      />
      <Route path="/index.html" element={<Navigate to="/" replace />} />
      <Route path="*" element={<Home />} />
    </Routes>
  );
}

export function AppFrame() {
  return (
    <ContactProvider>
      <Frame />
    </ContactProvider>
  );
}

function Frame() {
  useStartup();
  useClearSelectionOutsideInventory();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <TopBar />
      <Layout.Content id="main" style={{ display: 'flex', flexDirection: 'column' }}>
        <ErrorBanner />
        <StaffQboSessionBanner />
        <AreaErrorBoundary>
          <Suspense fallback={<PageLoader />}>
            <AppRoutes />
          </Suspense>
        </AreaErrorBoundary>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', background: '#f1ebe3' }}>
        <nav aria-label="Footer">
          <ContactButton />
          <Link to="/tos">Privacy Policy and End User License Agreement</Link>
        </nav>
        <div style={{ marginTop: 8, color: '#6b5d52' }}>
          © {new Date().getFullYear()} {BRAND}
        </div>
      </Layout.Footer>
    </Layout>
  );
}
