import { Navigate, Route, Routes } from '@decor/web-core/router';
import { AcceptanceSettingsScreen } from './components/AcceptanceSettingsScreen';

/** /admin/settings/* (staff; the shell's guard admits only them; saving is the superadmin's). */
export default function SettingsRoutes() {
  return (
    <Routes>
      <Route path="acceptance" element={<AcceptanceSettingsScreen />} />
      <Route path="*" element={<Navigate to="/admin/settings/acceptance" replace />} />
    </Routes>
  );
}
