import OrdersRoutes from '@decor/web-orders';

/** /orders/* for customers: the order screens of @decor/web-orders (the admin remote has the same for staff). */
export default function Orders() {
  return <OrdersRoutes base="/orders" />;
}
