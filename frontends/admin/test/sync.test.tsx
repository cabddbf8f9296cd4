import {
  createAppStore,
  externalNavigation,
  http,
  QBO_TEXTS,
  QboSessionBanner,
  signedIn,
} from '@decor/web-core';
import { MemoryRouter, Route, Routes } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { dayjs } from '@decor/web-core/ui-data';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import BackOffice from '../src/BackOffice';
import { formatWhen } from '../src/features/sync/texts';
import type { DeadLetter, FailedJob, QboStatus } from '../src/shared/api/sync/types';

const EXPIRES = '2026-11-23T18:30:00.000Z';

const connected: QboStatus = {
  connected: true,
  realmId: '9130355',
  companyName: 'Decor Rentals LLC',
  accessTokenExpiresAt: EXPIRES,
  queues: [
    { name: 'qbo-customers', waiting: 3, active: 1, delayed: 2, failed: 1, completed: 57, paused: false },
    { name: 'qbo-estimates', waiting: 0, active: 0, delayed: 0, failed: 4, completed: 12, paused: true },
  ],
};

const failedJob: FailedJob = {
  queue: 'qbo-estimates',
  id: 'evt-41:estimate',
  kind: 'estimate',
  recordId: 'e-1001',
  label: 'Estimate 1001',
  message: 'Business Validation Error: Customer is inactive',
  attemptsMade: 5,
  failedAt: '2026-11-23T17:02:03.000Z',
  traceId: '0af7651916cd43dd8448eb211c80319c',
};

const deadLetter: DeadLetter = {
  id: 'dl-7',
  group: 'accounting-sync.orders',
  type: 'EstimateSubmitted',
  aggregateId: 'e-1002',
  error: 'Cannot read the customer',
  failedAt: '2026-11-23T16:00:00.000Z',
};

describe('/admin/sync: the sync-health page', () => {
  let server: ApiServer;
  let status: QboStatus;
  let failed: FailedJob[];
  let letters: DeadLetter[];
  let statusFails = false;
  let renewOk = true;
  let retryStatus = 202;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /qbo/status': () =>
        statusFails
          ? { status: 503, body: { message: 'The accounting-sync service is not available' } }
          : { body: { result: status } },
      'GET /qbo/jobs/failed': () => ({ body: { result: failed } }),
      [`POST /qbo/jobs/qbo-estimates/${encodeURIComponent(failedJob.id)}/retry`]: () => {
        if (retryStatus !== 202) return { status: retryStatus, body: { message: 'Job is not failed' } };
        failed = [];
        return { status: 202, body: { result: { id: failedJob.id, state: 'waiting' } } };
      },
      'GET /qbo/dead-letters': () => ({ body: { result: letters } }),
      'POST /qbo/dead-letters/dl-7/replay': () => {
        letters = [];
        return { status: 202, body: { result: { id: 'dl-7' } } };
      },
      'POST /qbo/board-session': () => ({ body: { result: { url: '/api/admin/queues' } } }),
      'GET /qbo/connect': () => ({
        body: { result: { url: 'https://appcenter.intuit.com/connect/oauth2?client_id=abc&state=xyz' } },
      }),
      'GET /qbo/get/renewToken': () =>
        renewOk
          ? { body: { message: QBO_TEXTS.renewed } }
          : {
              status: 401,
              headers: { 'qbo-session-expired': 'true' },
              body: { message: 'There was an error renewing your token' },
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
    status = connected;
    failed = [failedJob];
    letters = [deadLetter];
    statusFails = false;
    renewOk = true;
    retryStatus = 202;
  });

  const renderAdmin = (path: string, permissions = 'admin') => {
    const store = createAppStore();
    sessionStorage.setItem('token', 'jwt');
    store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/*" element={<BackOffice />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    return store;
  };
  const requested = (method: string, url: string) =>
    server.requests.filter((r) => r.method === method && r.url === `/api${url}`).length;
  const section = (title: string) =>
    screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;

  it('shows the connection, the queues, the failed jobs and the dead-lettered events', async () => {
    renderAdmin('/admin/sync');
    expect(await screen.findByText('Connected to Decor Rentals LLC')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'QuickBooks sync' })).toBeInTheDocument();
    expect(screen.getByText('Realm ID 9130355')).toBeInTheDocument();
    expect(formatWhen(EXPIRES)).toBe(dayjs(EXPIRES).format('MMM D, YYYY h:mm:ss A'));
    expect(screen.getByText(`Access token valid until ${formatWhen(EXPIRES)}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Renew' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();

    const queues = section('Queues');
    const customers = within(queues).getByText('qbo-customers').closest('tr') as HTMLElement;
    expect(
      within(customers)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['qbo-customers ', '3', '1', '2', '1', '57']);
    const estimates = within(queues).getByText('qbo-estimates').closest('tr') as HTMLElement;
    expect(within(estimates).getByText('paused')).toBeInTheDocument();

    const jobs = section('Failed jobs');
    const job = (await within(jobs).findByText('Estimate 1001')).closest('tr') as HTMLElement;
    expect(within(job).getByText('estimate')).toBeInTheDocument();
    expect(within(job).getByText(failedJob.message)).toBeInTheDocument();
    expect(within(job).getByText('5')).toBeInTheDocument();
    expect(within(job).getByText(formatWhen(failedJob.failedAt))).toBeInTheDocument();
    expect(within(job).getByText(failedJob.traceId as string)).toBeInTheDocument(); // to open its trace

    const dead = section('Dead-lettered events');
    const letter = (await within(dead).findByText('EstimateSubmitted')).closest('tr') as HTMLElement;
    expect(within(letter).getByText('e-1002')).toBeInTheDocument();
    expect(within(letter).getByText('Cannot read the customer')).toBeInTheDocument();
    expect(within(letter).getByText(formatWhen(deadLetter.failedAt))).toBeInTheDocument();

    // Only superadmins get the queue dashboard.
    expect(screen.queryByRole('button', { name: 'Queue dashboard' })).not.toBeInTheDocument();
  });

  it('superadmins also get the queue dashboard: a board session first, then the board in a new tab', async () => {
    const tab = { location: { href: '' }, close: jest.fn() };
    const open = jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    renderAdmin('/admin/sync', 'superadmin');
    await userEvent.click(await screen.findByRole('button', { name: 'Queue dashboard' }));
    await waitFor(() => expect(tab.location.href).toBe('/api/admin/queues'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(requested('POST', '/qbo/board-session')).toBe(1);
    open.mockRestore();
  });

  it('refreshes live: asks again every 3 s while visible', async () => {
    renderAdmin('/admin/sync');
    await screen.findByText('Connected to Decor Rentals LLC');
    status = { ...connected, companyName: 'Decor Rentals Inc' };
    expect(await screen.findByText('Connected to Decor Rentals Inc')).toBeInTheDocument();
    expect(requested('GET', '/qbo/status')).toBeGreaterThanOrEqual(2);
    expect(requested('GET', '/qbo/jobs/failed')).toBeGreaterThanOrEqual(2);
  });

  it('Retry posts the job and refetches the list', async () => {
    renderAdmin('/admin/sync');
    const jobs = section('Failed jobs');
    await within(jobs).findByText('Estimate 1001');
    const before = requested('GET', '/qbo/jobs/failed');
    await userEvent.click(within(jobs).getByRole('button', { name: 'Retry estimate Estimate 1001' }));
    expect(await within(jobs).findByText('No failed jobs')).toBeInTheDocument();
    expect(requested('POST', `/qbo/jobs/qbo-estimates/${encodeURIComponent(failedJob.id)}/retry`)).toBe(1);
    expect(requested('GET', '/qbo/jobs/failed')).toBeGreaterThan(before);
  });

  it('a refused Retry shows the server message', async () => {
    retryStatus = 409;
    renderAdmin('/admin/sync');
    const jobs = section('Failed jobs');
    await within(jobs).findByText('Estimate 1001');
    await userEvent.click(within(jobs).getByRole('button', { name: 'Retry estimate Estimate 1001' }));
    expect(await within(jobs).findByText('Job is not failed')).toBeInTheDocument();
  });

  it('Replay posts the dead letter and refetches the list', async () => {
    renderAdmin('/admin/sync');
    const dead = section('Dead-lettered events');
    await within(dead).findByText('EstimateSubmitted');
    await userEvent.click(within(dead).getByRole('button', { name: 'Replay EstimateSubmitted e-1002' }));
    expect(await within(dead).findByText('No dead-lettered events')).toBeInTheDocument();
    expect(requested('POST', '/qbo/dead-letters/dl-7/replay')).toBe(1);
  });

  it("Renew: the server's message on success", async () => {
    renderAdmin('/admin/sync');
    await userEvent.click(await screen.findByRole('button', { name: 'Renew' }));
    expect(
      await screen.findByText(
        'Your session with QuickBooks has been renewed! Please try your previous request again.',
      ),
    ).toBeInTheDocument();
    expect(requested('GET', '/qbo/get/renewToken')).toBe(1);
  });

  it("Renew: 'There was an error renewing your token' on failure, with Connect", async () => {
    renewOk = false;
    const store = renderAdmin('/admin/sync');
    await userEvent.click(await screen.findByRole('button', { name: 'Renew' }));
    const banner = await screen.findByTestId('qbo-session-banner-screen');
    expect(within(banner).getByText('There was an error renewing your token')).toBeInTheDocument();
    expect(within(banner).getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    // The QuickBooks session, not the site session: still signed in.
    expect(store.getState().session.user?.permissions).toBe('admin');
    expect(sessionStorage.getItem('token')).toBe('jwt');
  });

  it('not connected: says so, and Connect goes to QuickBooks', async () => {
    status = { ...connected, connected: false, realmId: null, companyName: null, accessTokenExpiresAt: null };
    const assign = jest.spyOn(externalNavigation, 'assign').mockImplementation(() => {});
    renderAdmin('/admin/sync');
    expect(await screen.findByText('Not connected to QuickBooks')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Renew' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        'https://appcenter.intuit.com/connect/oauth2?client_id=abc&state=xyz',
      ),
    );
    expect(requested('GET', '/qbo/connect')).toBe(1);
    assign.mockRestore();
  });

  it("a status that fails to load shows the error body's message", async () => {
    statusFails = true;
    renderAdmin('/admin/sync');
    expect(await screen.findByText('The accounting-sync service is not available')).toBeInTheDocument();
  });

  it('empty lists say so', async () => {
    failed = [];
    letters = [];
    renderAdmin('/admin/sync');
    expect(await screen.findByText('No failed jobs')).toBeInTheDocument();
    expect(await screen.findByText('No dead-lettered events')).toBeInTheDocument();
  });

  it('the page shows the QuickBooks session banner; the frame banner steps aside meanwhile', async () => {
    const store = createAppStore();
    sessionStorage.setItem('token', 'jwt');
    store.dispatch(signedIn({ user: { ...demoUser, permissions: 'admin' }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/admin/sync']}>
          <QboSessionBanner placement="frame" />
          <Routes>
            <Route path="/admin/*" element={<BackOffice />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    await screen.findByText('Connected to Decor Rentals LLC');
    server.routes.set('POST /estimate/e1/qbo', () => ({
      status: 401,
      headers: { 'qbo-session-expired': 'true' },
      body: { message: 'QuickBooks session expired' },
    }));
    await act(() =>
      http.post('/estimate/e1/qbo').then(
        () => undefined,
        () => undefined,
      ),
    );
    expect(await screen.findAllByText(QBO_TEXTS.expired)).toHaveLength(1);
    expect(screen.getByTestId('qbo-session-banner-screen')).toBeInTheDocument();
    expect(screen.queryByTestId('qbo-session-banner-frame')).not.toBeInTheDocument();
  });
});
