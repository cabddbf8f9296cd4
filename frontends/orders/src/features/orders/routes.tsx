/**
 * @decor/web-orders: the order screens (spec orders §2), one implementation bundled into both remotes:
 * the storefront exposes it for customers at /orders/*, the admin remote for staff at /orders/* and
 * /admin/orders/*. Who is staff comes from the session; `base` is where the screens are mounted.
 */
import { isStaff, useAppSelector } from '@decor/web-core';
import { Route, Routes, useLocation, useParams } from '@decor/web-core/router';
import { useLiveOrders } from './api/use-live-orders';
import { AcceptEstimate } from './components/AcceptEstimate';
import { OrderDetail } from './components/OrderDetail';
import { OrdersList } from './components/OrdersList';
import type { OrderType } from './types';

export { OrderDetail } from './components/OrderDetail';
export { OrdersList } from './components/OrdersList';
export { TEXTS as ORDER_TEXTS } from './texts';

function Detail({ type, staff, base }: { type: OrderType; staff: boolean; base: string }) {
  const { id = '' } = useParams();
  // A new id is a new screen (edit mode, banners and form start over).
  return <OrderDetail key={`${type}:${id}`} type={type} id={id} staff={staff} base={base} />;
}

function Accept({ staff, base }: { staff: boolean; base: string }) {
  const { id = '' } = useParams();
  return <AcceptEstimate key={id} id={id} staff={staff} base={base} />;
}

/** Where the screens are mounted: /admin/orders for the back office's path, else /orders. */
function useBase(): string {
  const { pathname } = useLocation();
  return pathname.startsWith('/admin/orders') ? '/admin/orders' : '/orders';
}

export default function OrdersRoutes({ base }: { base?: string }) {
  const staff = useAppSelector((s) => isStaff(s.session.user?.permissions));
  const mountedAt = useBase();
  const root = base ?? mountedAt;
  useLiveOrders();
  return (
    <Routes>
      <Route path="estimate/:id/accept" element={<Accept staff={staff} base={root} />} />
      <Route path="estimate/:id" element={<Detail type="estimate" staff={staff} base={root} />} />
      <Route path="invoice/:id" element={<Detail type="invoice" staff={staff} base={root} />} />
      <Route path="*" element={<OrdersList staff={staff} base={root} />} />
    </Routes>
  );
}
