import OrdersRoutes from '@decor/web-orders';

/**
 * The order screens of @decor/web-orders for staff: exposed as './Orders' (the shell's /orders/* when
 * the viewer is staff) and routed by BackOffice at /admin/orders/*; links stay under the path in use.
 */
export default function Orders() {
  return <OrdersRoutes />;
}
