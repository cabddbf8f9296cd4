import { createAppStore, signedIn } from '@decor/web-core';
import { demoUser } from '@decor/web-core/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FrameRoutes } from '../src/features/frame/components/frame-routes';
import { TopBar } from '../src/features/frame/components/TopBar';
import { ROUTES } from '../src/routes';
import { renderAt } from './support';

/** The top bar inside the frame, which the app hands the site's route table (the user menu's entries). */
const inFrame = (
  <FrameRoutes.Provider value={ROUTES}>
    <TopBar />
  </FrameRoutes.Provider>
);

const signedInAs = (permissions: string) => {
  const store = createAppStore();
  store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
  return store;
};

/** The user menu's button once its (lazily loaded) dropdown is attached. */
const menuTrigger = () =>
  waitFor(() => {
    const button = screen.getByRole('button', { name: /User menu of Casey Customer/ });
    expect(button).toHaveClass('ant-dropdown-trigger');
    return button;
  });

const menuOf = async (permissions: string) => {
  renderAt('/', inFrame, signedInAs(permissions));
  await userEvent.click(await menuTrigger());
  await waitFor(() => expect(screen.getAllByRole('menuitem').length).toBeGreaterThan(0));
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
};

describe('top bar by role (spec §2)', () => {
  it('logged out: Home, Gallery and Login', () => {
    renderAt('/', inFrame);
    expect(screen.getByRole('link', { name: 'Home' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gallery' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('customers: Profile, Carts, Orders, Checkout, Logout', async () => {
    expect(await menuOf('customer')).toEqual(['Profile', 'Carts', 'Orders', 'Checkout', 'Logout']);
  });

  it('admins and superadmins: Profile, Users, Orders, Availability, Settings, Logout', async () => {
    expect(await menuOf('superadmin')).toEqual([
      'Profile',
      'Users',
      'Orders',
      'Availability',
      'Settings',
      'Logout',
    ]);
  });

  it('Logout signs out and goes home', async () => {
    sessionStorage.setItem('token', 'jwt');
    const store = signedInAs('customer');
    renderAt('/carts', inFrame, store);
    await userEvent.click(await menuTrigger());
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(store.getState().session.user).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/);
  });
});
