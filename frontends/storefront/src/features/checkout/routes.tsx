import { useActiveCart } from '@decor/web-core';
import { Route, Routes } from '@decor/web-core/router';
import { Loading } from '@decor/web-core/ui';
import { CartView } from '../../shared/cart/CartView';
import { EventForm } from './components/EventForm';
import { Summary } from './components/Summary';

/** /checkout/* (customers): cart, event, summary; any other path shows the cart (spec §2). */
export default function Checkout() {
  const { cart, pending } = useActiveCart();
  const activeCartId = cart?.id;
  // The summary carries its cart; the cart and the event form wait for the active cart.
  const waiting = pending ? (
    <Loading label="Loading the cart" size="large" style={{ display: 'block', margin: 48 }} />
  ) : null;
  return (
    <Routes>
      <Route path="event" element={waiting ?? <EventForm activeCartId={activeCartId} />} />
      <Route path="summary" element={<Summary />} />
      <Route path="*" element={waiting ?? <CartView cartId={activeCartId} />} />
    </Routes>
  );
}
