import { Route, Routes } from '@decor/web-core/router';
import { AdminHome } from './components/AdminHome';
import { AdminNotFound } from './components/AdminNotFound';

/** /admin itself (the landing page) and any /admin/* path no feature claims (not found). */
export default function HomeRoutes() {
  return (
    <Routes>
      <Route index element={<AdminHome />} />
      <Route path="*" element={<AdminNotFound />} />
    </Routes>
  );
}
