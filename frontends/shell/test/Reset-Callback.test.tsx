import { http } from '@decor/web-core';
import { Route, Routes } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import Callback, { EXTERNAL_LOGIN_FAILED } from '../src/features/pages/components/Callback';
import Reset, { RESET_TEXTS } from '../src/features/pages/components/Reset';
import { renderAt } from './support';

describe('/reset/{token} and /callback (spec §2)', () => {
  let server: ApiServer;
  let accessTokenOk = true;
  let jwtOk = true;
  const staffUser = { ...demoUser, permissions: 'admin', email: 'staff@decor.example' };

  beforeAll(async () => {
    server = await startApiServer({
      'GET /auth/resetLink': (req) =>
        req.headers.authorization === 'Bearer good.reset.token'
          ? { body: { result: { email: demoUser.email, id: demoUser.id } } }
          : { status: 401, body: { message: 'This link is no longer valid' } },
      [`PUT /user/${demoUser.id}`]: () => ({ body: { result: { message: 'ok' } } }),
      'GET /auth/accessToken': () =>
        accessTokenOk
          ? { body: { result: { connected: true, realmId: '9130355', companyName: 'Decor Rentals LLC' } } }
          : { status: 500, body: { message: 'qbo down' } },
      'GET /auth/jwt': (req) =>
        jwtOk && req.headers.authorization === 'Bearer jwt'
          ? { body: { result: staffUser } }
          : { status: 401, body: { message: 'Unauthorized' } },
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });

  const reset = (token: string) =>
    renderAt(
      `/reset/${token}`,
      <Routes>
        <Route path="/reset/:token" element={<Reset />} />
      </Routes>,
    );

  it('stores the token, asks whom it belongs to, validates and sets the new password', async () => {
    reset('good.reset.token');
    // While the link is asked about, a named status says what is happening (a screen reader hears it).
    expect(screen.getByRole('status', { name: 'Checking the link' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Reset Your Password' })).toBeInTheDocument();
    expect(screen.getByText(demoUser.email)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Password'), 'ab');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abc');
    // Both arrived whole (a keystroke lost under load fails here, not as a missing message below).
    expect(screen.getByLabelText('Password')).toHaveValue('ab');
    expect(screen.getByLabelText('Confirm Password')).toHaveValue('abc');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(RESET_TEXTS.tooShort)).toBeInTheDocument();
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(RESET_TEXTS.success)).toBeInTheDocument();
    const put = server.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({ password: 'abc' });
    expect(put?.headers.authorization).toBe('Bearer good.reset.token');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('a link the server refuses goes home', async () => {
    reset('spent.reset.token');
    await waitFor(() => expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/));
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  const callback = () =>
    renderAt(
      '/callback?code=abc&realmId=123',
      <StrictMode>
        <Routes>
          <Route path="/callback" element={<Callback />} />
        </Routes>
      </StrictMode>,
    );
  beforeEach(() => {
    accessTokenOk = true;
    jwtOk = true;
    server.requests.length = 0;
  });

  it('callback without a stored token goes home', () => {
    callback();
    expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/);
  });

  it('callback exchanges the query string once, then loads the signed-in user (GET /auth/jwt) and goes home', async () => {
    sessionStorage.setItem('token', 'jwt');
    const { store } = callback();
    expect(screen.getByRole('status', { name: 'Signing you in' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/));
    expect(store.getState().session.user?.email).toBe(staffUser.email);
    expect(store.getState().session.token).toBe('jwt');
    const urls = server.requests.map((r) => r.url);
    // The authorisation code is good once: one exchange even under StrictMode, before the user load.
    expect(urls.filter((u) => u.startsWith('/api/auth/accessToken'))).toEqual([
      '/api/auth/accessToken?code=abc&realmId=123',
    ]);
    expect(urls.indexOf('/api/auth/jwt')).toBeGreaterThan(
      urls.indexOf('/api/auth/accessToken?code=abc&realmId=123'),
    );
    expect(sessionStorage.getItem('token')).toBe('jwt');
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  it("a failed exchange clears session storage and says 'Something went wrong while logging in.'", async () => {
    accessTokenOk = false;
    sessionStorage.setItem('token', 'jwt');
    const { store } = callback();
    expect(await screen.findByText(EXTERNAL_LOGIN_FAILED)).toBeInTheDocument();
    expect(EXTERNAL_LOGIN_FAILED).toBe('Something went wrong while logging in.');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(store.getState().session.user).toBeNull();
    expect(server.requests.some((r) => r.url === '/api/auth/jwt')).toBe(false);
    expect(screen.getByLabelText('location')).toHaveTextContent('/callback');
  });

  it('a user load that fails after the exchange is a failed sign-in too', async () => {
    jwtOk = false;
    sessionStorage.setItem('token', 'jwt');
    const { store } = callback();
    expect(await screen.findByText(EXTERNAL_LOGIN_FAILED)).toBeInTheDocument();
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(store.getState().session.user).toBeNull();
  });
});
