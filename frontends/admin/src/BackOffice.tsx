import { Route, Routes } from '@decor/web-core/router';
import { Loading } from '@decor/web-core/ui';
import { lazy, Suspense } from 'react';

// Each feature is its own chunk, loaded when its route is first visited.
const SyncRoutes = lazy(() => import('./features/sync/routes'));
const UsersRoutes = lazy(() => import('./features/users/routes'));
const Orders = lazy(() => import('./features/orders/routes'));
const AvailabilityRoutes = lazy(() => import('./features/availability/routes'));
const HomeRoutes = lazy(() => import('./features/home/routes'));
const SettingsRoutes = lazy(() => import('./features/settings/routes'));

/**
 * The admin remote's screen for /admin/* (the shell's Protected guard admits staff only): one route
 * per feature, relative to /admin; /admin itself is the landing page, any other path not found.
 */
export default function BackOffice() {
  return (
    <Suspense fallback={<Loading label="Loading" style={{ margin: 48 }} />}>
      <Routes>
        <Route path="sync/*" element={<SyncRoutes />} />
        <Route path="orders/*" element={<Orders />} />
        <Route path="users/*" element={<UsersRoutes />} />
        <Route path="availability/*" element={<AvailabilityRoutes />} />
        <Route path="company/*" element={<UsersRoutes area="company" />} />
        <Route path="settings/*" element={<SettingsRoutes />} />
        <Route path="*" element={<HomeRoutes />} />
      </Routes>
    </Suspense>
  );
}
