import { createAppStore, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation } from '@decor/web-core/router';
import { demoUser } from '@decor/web-core/testing';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import OrdersRoutes from '../src/features/orders/routes';
import type { Order } from '../src/features/orders/types';

export const staffUser = {
  ...demoUser,
  id: '64b7f0c2a1b2c3d4e5f60799',
  firstName: 'Sam',
  lastName: 'Staff',
  displayName: 'Sam Staff',
  email: 'staff@decor.example',
  permissions: 'admin',
  ownCompany: null,
  CompanyId: null,
  cart: null,
};

const allowed = { allowed: true };

export function anOrder(over: Partial<Order> = {}): Order {
  return {
    id: 'e1',
    DocNumber: '1001',
    UserId: demoUser.id,
    CartId: 'cart-9',
    status: 'Open',
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: true,
    qboId: '77',
    syncToken: '0',
    customerName: 'Evergreen Weddings',
    groupName: 'Smith wedding',
    eventDate: '2030-06-20',
    location: 'Grand Hall',
    operationsManager: null,
    eventStartTime: '17:30',
    eventEndTime: null,
    room: 'Ballroom',
    loadInTime: null,
    setByTime: null,
    strikeTime: null,
    commentsOnSetup: null,
    commentsOnEvent: null,
    willCallCustomerName: 'Evergreen Weddings',
    willCallPickupDate: null,
    willCallPickupTime: null,
    willCallReturnDate: null,
    willCallReturnTime: null,
    subtotal: 500,
    truckingFee: 350,
    salesTax: 68.85,
    total: 918.85,
    createdAt: '2026-11-01T10:00:00.000Z',
    CartProducts: [
      {
        id: 'BAR-FR-001',
        name: 'Mirrored Bar Front',
        description: 'Six-foot bar front',
        qty: 2,
        price: 250,
        total: 500,
        qboId: null,
      },
    ],
    User: {
      displayName: 'Casey Customer',
      ownCompany: 'Evergreen Weddings',
      email: demoUser.email,
      qboId: null,
    },
    actions: {
      edit: allowed,
      requestInvoice: allowed,
      sendToQbo: { allowed: false, reason: 'This order is already in Quick Books.' },
      updateInQbo: allowed,
      complete: allowed,
      cancel: allowed,
    },
    ...over,
  };
}

function Where() {
  const { pathname } = useLocation();
  return <output aria-label="location">{pathname}</output>;
}

export function renderOrders(path: string, user: object = demoUser) {
  const store = createAppStore();
  store.dispatch(signedIn({ user: user as typeof demoUser, token: 'jwt' }));
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/orders/*" element={<OrdersRoutes />} />
          <Route path="/admin/orders/*" element={<OrdersRoutes />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...view };
}

/** One element in a router with the real store, signed in as `user`. */
export function renderElement(element: ReactNode, user: object = demoUser) {
  const store = createAppStore();
  store.dispatch(signedIn({ user: user as typeof demoUser, token: 'jwt' }));
  return render(
    <Provider store={store}>
      <MemoryRouter>{element}</MemoryRouter>
    </Provider>,
  );
}
