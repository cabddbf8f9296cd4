import { CONNECTION_ERROR, createAppStore, signedIn, validateSession } from '@decor/web-core';
import { Route, Routes } from '@decor/web-core/router';
import { demoUser } from '@decor/web-core/testing';
import { screen } from '@testing-library/react';
import { Protected } from '../src/features/frame/components/Protected';
import { renderAt } from './support';

const guarded = (roles: Parameters<typeof Protected>[0]['roles']) => (
  <Routes>
    <Route
      path="/checkout/*"
      element={
        <Protected roles={roles}>
          <p>checkout screen</p>
        </Protected>
      }
    />
    <Route path="/" element={<p>home screen</p>} />
  </Routes>
);

describe('protected routes (spec §2)', () => {
  it('without a session token: redirected to /', () => {
    renderAt('/checkout/cart', guarded(['customer']));
    expect(screen.getByText('home screen')).toBeInTheDocument();
    expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/);
  });

  it('while permissions load: a loader', () => {
    sessionStorage.setItem('token', 'jwt');
    const store = createAppStore();
    store.dispatch(validateSession.pending('r'));
    renderAt('/checkout/cart', guarded(['customer']), store);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByText('checkout screen')).not.toBeInTheDocument();
  });

  it('when loading the user failed: the connection message', () => {
    sessionStorage.setItem('token', 'jwt');
    const store = createAppStore();
    store.dispatch(validateSession.rejected(null, 'r', undefined, { status: 500, message: 'down' }));
    renderAt('/checkout/cart', guarded(['customer']), store);
    expect(screen.getByText(CONNECTION_ERROR)).toBeInTheDocument();
    expect(screen.queryByText('checkout screen')).not.toBeInTheDocument();
  });

  it('a role not allowed: redirected to /; an allowed one: the screen', () => {
    sessionStorage.setItem('token', 'jwt');
    const staff = createAppStore();
    staff.dispatch(signedIn({ user: { ...demoUser, permissions: 'admin' }, token: 'jwt' }));
    const { unmount } = renderAt('/checkout/cart', guarded(['customer']), staff);
    expect(screen.getByText('home screen')).toBeInTheDocument();
    unmount();
    const customer = createAppStore();
    customer.dispatch(signedIn({ user: demoUser, token: 'jwt' }));
    renderAt('/checkout/cart', guarded(['customer']), customer);
    expect(screen.getByText('checkout screen')).toBeInTheDocument();
  });
});
