import { CONNECTION_ERROR, guardDecision, type Role, useAppSelector } from '@decor/web-core';
import { Navigate } from '@decor/web-core/router';
import { Alert } from '@decor/web-core/ui';
import type { ReactNode } from 'react';
import { PageLoader } from '../../../shared/PageLoader';

/** Spec §2 protected routes. */
export function Protected({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const session = useAppSelector((s) => s.session);
  switch (guardDecision(session, roles)) {
    case 'redirect':
      return <Navigate to="/" replace />;
    case 'loading':
      return <PageLoader />;
    case 'error':
      return <Alert type="error" showIcon title={CONNECTION_ERROR} style={{ margin: 24 }} />;
    default:
      return <>{children}</>;
  }
}
