import { http } from '@decor/web-core';
import { Route, Routes } from '@decor/web-core/router';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ApiServer, demoUser, startApiServer } from '../../core/test/support/api-server';
import Callback, { EXTERNAL_LOGIN_FAILED } from '../src/pages/Callback';
import Reset, { RESET_TEXTS } from '../src/pages/Reset';
import { renderAt } from './support';

describe('/reset/{token} and /callback (spec §2)', () => {
  let server: ApiServer;
  let accessTokenOk = true;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /auth/resetLink': (req) =>
        req.headers.authorization === 'Bearer good.reset.token'
          ? { body: { result: { email: demoUser.email, id: demoUser.id } } }
          : { status: 401, body: { message: 'This link is no longer valid' } },
      [`PUT /user/${demoUser.id}`]: () => ({ body: { result: { message: 'ok' } } }),
      'GET /auth/accessToken': () =>
        accessTokenOk ? { body: { result: demoUser } } : { status: 500, body: { message: 'qbo down' } },
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
    expect(await screen.findByRole('heading', { name: 'Reset Your Password' })).toBeInTheDocument();
    expect(screen.getByText(demoUser.email)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Password'), 'ab');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abc');
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
      <Routes>
        <Route path="/callback" element={<Callback />} />
      </Routes>,
    );

  it('callback without a stored token goes home', () => {
    callback();
    expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/);
  });

  it('callback exchanges the query string, stores the user and goes home', async () => {
    accessTokenOk = true;
    sessionStorage.setItem('token', 'jwt');
    const { store } = callback();
    await waitFor(() => expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/));
    expect(store.getState().session.user?.email).toBe(demoUser.email);
    expect(server.requests.at(-1)?.url).toBe('/api/auth/accessToken?code=abc&realmId=123');
  });

  it("a failed exchange clears session storage and says 'Something went wrong while logging in.'", async () => {
    accessTokenOk = false;
    sessionStorage.setItem('token', 'jwt');
    callback();
    expect(await screen.findByText(EXTERNAL_LOGIN_FAILED)).toBeInTheDocument();
    expect(EXTERNAL_LOGIN_FAILED).toBe('Something went wrong while logging in.');
    expect(sessionStorage.getItem('token')).toBeNull();
  });
});
