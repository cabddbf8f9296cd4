import { isStaff, useAppSelector } from '@decor/web-core';
import { RemoteScreen } from '../../../shared/RemoteScreen';

/**
 * /orders/* (spec orders §2): one implementation of the order screens (@decor/web-orders), bundled
 * into both remotes; customers get the storefront's copy, staff the admin remote's (its chunks are
 * the ones staff load anyway). The route's Protected guard has already admitted the viewer.
 */
export default function Orders() {
  const staff = useAppSelector((s) => isStaff(s.session.user?.permissions));
  return staff ? (
    <RemoteScreen key="admin" remote="admin" module="Orders" />
  ) : (
    <RemoteScreen key="storefront" remote="storefront" module="Orders" />
  );
}
