import { createAppStore, type FailedEmail, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import BackOffice from '../src/BackOffice';
import { formatWhen } from '../src/features/sync/texts';

const failedEmail: FailedEmail = {
  id: 'email.evt-9.customer',
  to: 'olive@example.com',
  subject: 'Your estimate request was received',
  error: 'connect ECONNREFUSED 127.0.0.1:2525',
  attemptsMade: 34,
  failedAt: '2026-11-24T08:15:00.000Z',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
};

describe('/admin/sync: failed e-mails with Replay', () => {
  let server: ApiServer;
  let failed: FailedEmail[];
  let delayed: number;
  let replayStatus: number;
  let slowList: Promise<void> | undefined;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /qbo/status': () => ({ status: 503, body: { message: 'not under test' } }),
      'GET /qbo/jobs/failed': () => ({ body: { result: [] } }),
      'GET /qbo/dead-letters': () => ({ body: { result: [] } }),
      'GET /send/failed': async () => {
        await slowList;
        return { body: { result: failed } };
      },
      'GET /send/queue': () => ({
        body: { result: { waiting: 0, active: 0, delayed, failed: failed.length } },
      }),
      [`POST /send/failed/${failedEmail.id}/replay`]: () => {
        if (replayStatus !== 202)
          return { status: replayStatus, body: { message: 'No failed e-mail with this id' } };
        failed = [];
        return { status: 202, body: { result: { id: failedEmail.id, state: 'waiting' } } };
      },
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    failed = [failedEmail];
    delayed = 0;
    replayStatus = 202;
    slowList = undefined;
  });

  const renderSync = () => {
    const store = createAppStore();
    sessionStorage.setItem('token', 'jwt');
    store.dispatch(signedIn({ user: { ...demoUser, permissions: 'admin' }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/admin/sync']}>
          <Routes>
            <Route path="/admin/*" element={<BackOffice />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
  };
  const card = () =>
    screen
      .getByText('Failed e-mails', { selector: '.ant-card-head-title' })
      .closest('.ant-card') as HTMLElement;
  const requested = (method: string, url: string) =>
    server.requests.filter((r) => r.method === method && r.url === `/api${url}`).length;

  it('lists recipient, subject, last error, attempts, time and trace id; Replay posts it once and refetches', async () => {
    renderSync();
    const row = (
      await within(await screen.findByText('Failed e-mails').then(card)).findByText('olive@example.com')
    ).closest('tr') as HTMLElement;
    expect(within(row).getByText('Your estimate request was received')).toBeInTheDocument();
    expect(within(row).getByText('connect ECONNREFUSED 127.0.0.1:2525')).toBeInTheDocument();
    expect(within(row).getByText('34')).toBeInTheDocument();
    expect(within(row).getByText(formatWhen(failedEmail.failedAt))).toBeInTheDocument();
    expect(within(row).getByText(failedEmail.traceId as string)).toBeInTheDocument(); // to open its trace

    const before = requested('GET', '/send/failed');
    await userEvent.click(
      within(row).getByRole('button', {
        name: 'Replay Your estimate request was received to olive@example.com',
      }),
    );
    expect(await within(card()).findByText('No failed e-mails')).toBeInTheDocument();
    expect(requested('POST', `/send/failed/${failedEmail.id}/replay`)).toBe(1);
    expect(requested('GET', '/send/failed')).toBeGreaterThan(before);
  });

  it('a refused Replay shows the server message', async () => {
    replayStatus = 404;
    renderSync();
    await within(await screen.findByText('Failed e-mails').then(card)).findByText('olive@example.com');
    await userEvent.click(within(card()).getByRole('button', { name: /^Replay / }));
    expect(await within(card()).findByText('No failed e-mail with this id')).toBeInTheDocument();
  });

  it('says so while loading, when empty, and how many e-mails wait for a retry', async () => {
    let release = () => {};
    slowList = new Promise<void>((resolve) => {
      release = resolve;
    });
    failed = [];
    delayed = 3;
    renderSync();
    const section = await screen.findByText('Failed e-mails').then(card);
    expect(section.querySelector('.ant-spin-spinning')).not.toBeNull();
    expect(within(section).queryByText('No failed e-mails')).not.toBeInTheDocument();
    release();
    expect(await within(section).findByText('No failed e-mails')).toBeInTheDocument();
    expect(await within(section).findByRole('status')).toHaveTextContent('3 e-mails waiting to be retried');
  });
});
