import { Route, Routes } from '@decor/web-core/router';
import { SyncHealth } from './components/SyncHealth';

/** /admin/sync/* (staff; the shell's guard admits only them). */
export default function SyncRoutes() {
  return (
    <Routes>
      <Route index element={<SyncHealth />} />
      <Route path="*" element={<SyncHealth />} />
    </Routes>
  );
}
