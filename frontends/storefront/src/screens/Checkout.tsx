import { useAppSelector } from '@decor/web-core';
import { Route, Routes } from '@decor/web-core/router';
import { CartView } from '../checkout/CartView';
import { EventForm } from '../checkout/EventForm';
import { Summary } from '../checkout/Summary';

/** /checkout/* (customers): cart, event, summary; any other path shows the cart (spec §2). */
export default function Checkout() {
  const activeCartId = useAppSelector((s) => s.session.user?.cart?.id);
  return (
    <Routes>
      <Route path="event" element={<EventForm activeCartId={activeCartId} />} />
      <Route path="summary" element={<Summary />} />
      <Route path="*" element={<CartView cartId={activeCartId} />} />
    </Routes>
  );
}
