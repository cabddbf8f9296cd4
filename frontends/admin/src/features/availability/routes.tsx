import { Route, Routes } from '@decor/web-core/router';
import { AvailabilityScreen } from './components/AvailabilityScreen';

/** /admin/availability/* (staff; the shell's guard admits only them). */
export default function AvailabilityRoutes() {
  return (
    <Routes>
      <Route path="*" element={<AvailabilityScreen />} />
    </Routes>
  );
}
