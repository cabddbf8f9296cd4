import { createAppStore, http, QBO_TEXTS, setActiveSubCategory, setOpenedCategory } from '@decor/web-core';
import { MemoryRouter, useNavigate } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { App } from '../src/app';
import { loadScreen } from '../src/remotes';

jest.mock('../src/remotes', () => ({ loadScreen: jest.fn(), loadedScreen: jest.fn() }));
const load = loadScreen as jest.MockedFunction<typeof loadScreen>;

/** Lazy pages and the session check on a busy machine. */
const LOAD = { timeout: 10_000 };

function GoTo({ to }: { to: string }) {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(to)}>
      go {to}
    </button>
  );
}

describe('the page frame (spec §2)', () => {
  let server: ApiServer;
  let categoriesFail = false;
  let jwtPermissions = 'customer';
  const jwtCalls = () => server.requests.filter((r) => r.url === '/api/auth/jwt').length;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /categories': () =>
        categoriesFail
          ? { status: 503, body: { message: 'down' } }
          : { body: { result: { categories: [], subcategories: [] } } },
      'GET /product': () => ({ body: { result: [] } }),
      'GET /auth/jwt': () => ({ body: { result: { ...demoUser, permissions: jwtPermissions } } }),
      'POST /estimate/e1/qbo': () => ({
        status: 401,
        headers: { 'qbo-session-expired': 'true' },
        body: { message: 'QuickBooks session expired' },
      }),
    });
    http.defaults.baseURL = server.apiUrl;
    load.mockResolvedValue({ default: () => <p>inventory screen</p> });
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    categoriesFail = false;
    jwtPermissions = 'customer';
  });

  const renderFrame = (path: string) => {
    const store = createAppStore();
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <App />
          <GoTo to="/gallery" />
        </MemoryRouter>
      </Provider>,
    );
    return store;
  };

  it('any other path shows the home screen; categories load on start', async () => {
    renderFrame('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'About us' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'What sets us apart' })).toBeInTheDocument();
    const tos = screen.getAllByRole('link', { name: 'Privacy Policy and End User License Agreement' });
    expect(tos[0]).toHaveAttribute('href', '/tos');
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/categories')).toBe(true));
  });

  it('validates a stored token on start', async () => {
    sessionStorage.setItem('token', 'jwt');
    const store = renderFrame('/');
    await waitFor(() => expect(store.getState().session.user?.email).toBe(demoUser.email));
    expect(jwtCalls()).toBe(1);
  });

  it('does not validate the stored token on a reset page', async () => {
    sessionStorage.setItem('token', 'a-reset-link-token');
    renderFrame('/reset/a-reset-link-token');
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/auth/resetLink')).toBe(true));
    expect(jwtCalls()).toBe(0);
  });

  it('the error banner at the top of the main area when the categories fail', async () => {
    categoriesFail = true;
    renderFrame('/');
    expect(await screen.findByText('The inventory did not load')).toBeInTheDocument();
    expect(screen.getByTestId('error-banner').closest('main, #main')).not.toBeNull();
  });

  it('leaving the inventory clears the selected category and subcategory', async () => {
    const store = renderFrame('/inventory/BARS/Bar%20Front');
    expect(await screen.findByText('inventory screen')).toBeInTheDocument();
    store.dispatch(setOpenedCategory('BARS'));
    store.dispatch(setActiveSubCategory('Bar Front'));
    await userEvent.click(screen.getByRole('button', { name: 'go /gallery' }));
    await waitFor(() =>
      expect(store.getState().sideNav).toMatchObject({ openedCategory: null, activeSubCategory: null }),
    );
  });

  const qboRefusal = () =>
    act(() =>
      http.post('/estimate/e1/qbo').then(
        () => undefined,
        () => undefined,
      ),
    );

  it('staff see the QuickBooks session banner in the frame; they stay signed in', async () => {
    jwtPermissions = 'admin';
    sessionStorage.setItem('token', 'jwt');
    const store = renderFrame('/');
    await waitFor(() => expect(store.getState().session.user?.permissions).toBe('admin'));
    expect(screen.queryByText(QBO_TEXTS.expired)).not.toBeInTheDocument();
    await qboRefusal();
    const banner = await screen.findByTestId('qbo-session-banner-frame');
    expect(banner).toHaveTextContent(QBO_TEXTS.expired);
    expect(banner.closest('main, #main')).not.toBeNull();
    expect(store.getState().session.user?.permissions).toBe('admin');
    expect(sessionStorage.getItem('token')).toBe('jwt');
  });

  it.each([
    ['a visitor', undefined],
    ['a customer', 'customer'],
  ])('/admin is staff only: %s lands on the home screen, the back office never loads', async (_who, role) => {
    if (role) sessionStorage.setItem('token', 'jwt');
    load.mockClear();
    renderFrame('/admin');
    expect(await screen.findByRole('heading', { name: 'About us' }, LOAD)).toBeInTheDocument();
    expect(load).not.toHaveBeenCalledWith('admin', 'BackOffice');
  });

  it.each(['admin', 'superadmin'])('/admin: %s gets the back office', async (permissions) => {
    jwtPermissions = permissions;
    sessionStorage.setItem('token', 'jwt');
    load.mockClear();
    renderFrame('/admin');
    // The mocked remote answers this one screen whichever is asked for.
    expect(await screen.findByText('inventory screen', {}, LOAD)).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('admin', 'BackOffice');
  });

  it('customers never see it', async () => {
    sessionStorage.setItem('token', 'jwt');
    const store = renderFrame('/');
    await waitFor(() => expect(store.getState().session.user?.permissions).toBe('customer'));
    await qboRefusal();
    expect(store.getState().qboSession.expired).toBe(true);
    expect(screen.queryByText(QBO_TEXTS.expired)).not.toBeInTheDocument();
  });
});
