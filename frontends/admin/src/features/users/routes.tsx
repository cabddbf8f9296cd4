import { Route, Routes } from '@decor/web-core/router';
import { CompanyDetail } from './components/CompanyDetail';
import { UserDetail } from './components/UserDetail';
import { UsersScreen } from './components/UsersScreen';

/**
 * /admin/users/* (the users screen and a user's page) and, with `area="company"`, /admin/company/*
 * (a company's page); staff only (the shell's guard admits only them).
 */
export default function UsersRoutes({ area = 'users' }: { area?: 'users' | 'company' }) {
  if (area === 'company') {
    return (
      <Routes>
        <Route path=":id" element={<CompanyDetail />} />
        <Route path="*" element={<UsersScreen />} />
      </Routes>
    );
  }
  return (
    <Routes>
      <Route index element={<UsersScreen />} />
      <Route path=":id" element={<UserDetail />} />
      <Route path="*" element={<UsersScreen />} />
    </Routes>
  );
}
