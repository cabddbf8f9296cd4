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
import { Link, Route, Routes, useLocation } from '@decor/web-core/router';
import { Layout } from '@decor/web-core/ui';
import { Suspense, useEffect } from 'react';
import type { AppRoute } from '../../../shared/access';
import { ContactButton } from '../../../shared/contact-button';
import { PageLoader } from '../../../shared/PageLoader';
import { AreaErrorBoundary } from '../../../shared/RemoteScreen';
import { ErrorBanner } from './ErrorBanner';
import { FrameRoutes } from './frame-routes';
import { Protected } from './Protected';
import { BRAND, TopBar } from './TopBar';

/** Runs `work` once the browser has nothing else to do (a task later where it cannot tell). */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 0);
  return () => clearTimeout(id);
}

/**
 * On start: load the categories, and validate a stored session token (except on reset pages). A
 * component of its own, rendering nothing: what it reads from the store re-renders it alone.
 */
function Startup() {
  const dispatch = useAppDispatch();
  const token = useAppSelector((s) => s.session.token);
  // A server-rendered inventory page brought them.
  const haveCategories = useAppSelector((s) => s.sideNav.categories.length > 0);
  const { pathname } = useLocation();
  const onReset = pathname.startsWith('/reset');
  // Once per start.
  useEffect(() => {
    if (token && !onReset) dispatch(validateSession());
    if (haveCategories) return;
    if (token) {
      dispatch(fetchCategories());
      return;
    }
    // A visitor's page (server-rendered, hydrating) shows them only on the inventory, which brought
    // them: asked for once the page has started (issue 31), so neither the answer nor the HTTP
    // client's code holds up a phone's first taps.
    return whenIdle(() => dispatch(fetchCategories()));
  }, []);
  return null;
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

/** The router, built from the route table; a route with roles is behind the Protected guard. */
export function AppRoutes({ routes }: { routes: readonly AppRoute[] }) {
  return (
    <Routes>
      {routes.map(({ path, screen, roles }) => (
        <Route
          key={path}
          path={path}
          element={roles ? <Protected roles={roles}>{screen}</Protected> : screen}
        />
      ))}
    </Routes>
  );
}

/**
 * The page frame around the site's route table, which the app hands in (src/app.tsx: the table imports
 * the pages' screens, so the frame never imports it). The footer's Contact us needs the contact
 * feature's provider around the frame (the app places it).
 */
export function AppFrame({ routes }: { routes: readonly AppRoute[] }) {
  return (
    <FrameRoutes.Provider value={routes}>
      <Frame routes={routes} />
    </FrameRoutes.Provider>
  );
}

function Frame({ routes }: { routes: readonly AppRoute[] }) {
  useClearSelectionOutsideInventory();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Startup />
      <TopBar />
      <Layout.Content id="main" style={{ display: 'flex', flexDirection: 'column' }}>
        <ErrorBanner />
        <StaffQboSessionBanner />
        <AreaErrorBoundary>
          <Suspense fallback={<PageLoader />}>
            <AppRoutes routes={routes} />
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
