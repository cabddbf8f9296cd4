import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { http } from '../src/http';
import { QboSessionBanner } from '../src/qbo-session-banner';
import { externalNavigation, QBO_TEXTS } from '../src/qbo-session-slice';
import { signedIn } from '../src/session-slice';
import { createAppStore } from '../src/store';
import { type ApiServer, demoUser, startApiServer } from './support/api-server';

describe('the QuickBooks session banner (spec orders §4, §8)', () => {
  let server: ApiServer;
  let renewOk = true;

  beforeAll(async () => {
    server = await startApiServer({
      'POST /estimate/e1/qbo': () => ({
        status: 401,
        body: { message: 'The QuickBooks session has expired' },
        headers: { 'qbo-session-expired': 'true' },
      }),
      'GET /plain-401': () => ({ status: 401, body: { message: 'Unauthorized' } }),
      'GET /qbo/get/renewToken': () =>
        renewOk
          ? { body: { message: QBO_TEXTS.renewed } }
          : {
              status: 401,
              body: { message: 'There was an error renewing your token' },
              headers: { 'qbo-session-expired': 'true' },
            },
      'GET /qbo/connect': () => ({
        body: { result: { url: 'https://appcenter.intuit.com/connect/oauth2?x=1' } },
      }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    renewOk = true;
  });

  const renderBanner = () => {
    const store = createAppStore();
    sessionStorage.setItem('token', 'jwt');
    store.dispatch(signedIn({ user: { ...demoUser, permissions: 'admin' }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <QboSessionBanner />
      </Provider>,
    );
    return store;
  };
  const refused = (request: Promise<unknown>) =>
    act(() =>
      request.then(
        () => undefined,
        () => undefined,
      ),
    );

  it('is hidden until a call answers 401 with qbo-session-expired: true; a plain 401 shows nothing', async () => {
    const store = renderBanner();
    expect(screen.queryByText(QBO_TEXTS.expired)).not.toBeInTheDocument();
    await refused(http.get('/plain-401'));
    expect(screen.queryByText(QBO_TEXTS.expired)).not.toBeInTheDocument();
    await refused(http.post('/estimate/e1/qbo'));
    expect(await screen.findByText(QBO_TEXTS.expired)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Click here' })).toBeInTheDocument();
    // Not the site session: still signed in, token kept.
    expect(store.getState().session.user?.email).toBe(demoUser.email);
    expect(sessionStorage.getItem('token')).toBe('jwt');
  });

  it("'Click here' renews the session and says so", async () => {
    renderBanner();
    await refused(http.post('/estimate/e1/qbo'));
    await userEvent.click(await screen.findByRole('button', { name: 'Click here' }));
    expect(await screen.findByText(QBO_TEXTS.renewed)).toBeInTheDocument();
    expect(QBO_TEXTS.renewed).toBe(
      'Your session with QuickBooks has been renewed! Please try your previous request again.',
    );
    expect(screen.queryByText(QBO_TEXTS.expired)).not.toBeInTheDocument();
    expect(server.requests.filter((r) => r.url === '/api/qbo/get/renewToken')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(QBO_TEXTS.renewed)).not.toBeInTheDocument());
  });

  it('a failed renewal says so and offers Connect, which goes to QuickBooks', async () => {
    renewOk = false;
    const assign = jest.spyOn(externalNavigation, 'assign').mockImplementation(() => {});
    renderBanner();
    await refused(http.post('/estimate/e1/qbo'));
    await userEvent.click(await screen.findByRole('button', { name: 'Click here' }));
    expect(await screen.findByText('There was an error renewing your token')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://appcenter.intuit.com/connect/oauth2?x=1'),
    );
    assign.mockRestore();
  });
});
