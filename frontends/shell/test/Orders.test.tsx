import { createAppStore, signedIn } from '@decor/web-core';
import { MemoryRouter } from '@decor/web-core/router';
import { demoUser } from '@decor/web-core/testing';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import Orders from '../src/features/pages/components/Orders';
import { loadScreen } from '../src/remotes';

// RemoteScreen asks loadedScreen first (a screen loaded ahead of hydration); none here.
jest.mock('../src/remotes', () => ({ loadScreen: jest.fn(), loadedScreen: jest.fn() }));
const load = loadScreen as jest.MockedFunction<typeof loadScreen>;

describe('/orders picks the remote by role', () => {
  beforeEach(() => {
    load.mockReset();
    load.mockImplementation(async (remote, module) => ({
      default: () => (
        <p>
          {remote}/{module}
        </p>
      ),
    }));
  });

  const renderAs = (permissions: string) => {
    const store = createAppStore();
    store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/orders']}>
          <Orders />
        </MemoryRouter>
      </Provider>,
    );
  };

  it("customers get the storefront's order screens", async () => {
    renderAs('customer');
    expect(await screen.findByText('storefront/Orders')).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('storefront', 'Orders');
    expect(load).not.toHaveBeenCalledWith('admin', 'Orders');
  });

  it.each(['admin', 'superadmin'])("%s gets the admin remote's order screens", async (permissions) => {
    renderAs(permissions);
    expect(await screen.findByText('admin/Orders')).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('admin', 'Orders');
    expect(load).not.toHaveBeenCalledWith('storefront', 'Orders');
  });
});
