import { createAppStore, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useNavigate } from '@decor/web-core/router';
import { type ApiServer, demoUser, type Recorded, startApiServer } from '@decor/web-core/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import BackOffice from '../src/BackOffice';
import { AdminHome } from '../src/features/home/components/AdminHome';

function GoTo({ to }: { to: string }) {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(to)}>
      go elsewhere
    </button>
  );
}

const query = (r: Recorded) => Object.fromEntries(new URL(r.url, 'http://x').searchParams);

describe('/admin: the staff landing page', () => {
  let server: ApiServer;
  let failedJobs: unknown[];

  beforeAll(async () => {
    server = await startApiServer({
      'GET /estimate': (r) => {
        const q = query(r);
        const total = q.status === 'Pending' ? 7 : q.hasBeenModified === 'true' ? 3 : 99;
        return { body: { result: [{ id: 'e1' }] }, headers: { total_count: String(total) } };
      },
      'GET /user': () => ({ body: { result: [{ id: 'u1' }] }, headers: { total_count: '1234' } }),
      'GET /qbo/jobs/failed': () => ({ body: { result: failedJobs } }),
      'GET /qbo/dead-letters': () => ({ status: 503, body: { message: 'down' } }),
      'GET /availability/conflicts': () => ({ body: { result: [{ id: 'CHAIR-1' }] } }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    failedJobs = [{ id: 'j1' }, { id: 'j2' }];
  });

  const renderAt = (path: string, ui = <BackOffice />, permissions = 'admin') => {
    const store = createAppStore();
    store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <GoTo to="/admin/elsewhere" />
          <Routes>
            <Route path="/admin/*" element={ui} />
            <Route path="*" element={<p>somewhere else</p>} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
  };
  /** The value next to a count's label. */
  const countOf = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
  const card = (title: string) =>
    screen.getByRole('link', { name: title }).closest('.ant-card') as HTMLElement;

  it('links to Orders, Users and QuickBooks sync, with the counts that call for action', async () => {
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Back office' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/admin/orders');
    expect(screen.getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin/users');
    expect(screen.getByRole('link', { name: 'QuickBooks sync' })).toHaveAttribute('href', '/admin/sync');
    expect(screen.getByRole('link', { name: 'Availability' })).toHaveAttribute('href', '/admin/availability');
    await within(card('Availability')).findByText('1');
    expect(countOf('Days booked beyond stock')).toBe('1');
    await screen.findByText('1,234');
    await within(card('Orders')).findByText('7');
    await within(card('QuickBooks sync')).findByText('2');
    expect(countOf('Estimates pending review')).toBe('7');
    expect(countOf('Orders pending update')).toBe('3');
    expect(countOf('Customers')).toBe('1,234');
    expect(countOf('Failed sync jobs')).toBe('2');
    // A count that did not load says so; the rest of the page stands.
    expect(await within(card('QuickBooks sync')).findByText('unavailable')).toBeInTheDocument();
    expect(countOf('Dead-lettered events')).toBe('unavailable');
    // Counts come from the lists' total_count: one row asked for each.
    const estimates = server.requests.filter((r) => r.url.startsWith('/api/estimate')).map(query);
    expect(estimates).toEqual(
      expect.arrayContaining([
        { status: 'Pending', limit: '1' },
        { hasBeenModified: 'true', limit: '1' },
      ]),
    );
    const users = server.requests.find((r) => r.url.startsWith('/api/user')) as Recorded;
    expect(query(users)).toEqual({ permissions: 'customer', limit: '1' });
  });

  it('a link leads to its screen', async () => {
    renderAt('/admin');
    await userEvent.click(await screen.findByRole('link', { name: 'QuickBooks sync' }));
    expect(await screen.findByRole('heading', { name: 'QuickBooks sync', level: 2 })).toBeInTheDocument();
  });

  it('counts are fresh on every visit', async () => {
    renderAt('/admin');
    await within(card('QuickBooks sync')).findByText('2');
    failedJobs = [];
    await userEvent.click(screen.getByRole('button', { name: 'go elsewhere' }));
    await userEvent.click(await screen.findByRole('link', { name: 'Back to the back office' }));
    await within(card('QuickBooks sync')).findByText('0');
    expect(countOf('Failed sync jobs')).toBe('0');
  });

  it('staff only: for anyone else the page shows and asks for nothing', async () => {
    renderAt('/admin', <AdminHome />, 'customer');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('heading', { name: 'Back office' })).not.toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown /admin path: not found inside the back office, with the way back', async () => {
    renderAt('/admin/no-such-screen');
    expect(await screen.findByText('There is no such back-office page')).toBeInTheDocument();
    expect(screen.queryByText(/coming soon/i)).not.toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
    await userEvent.click(screen.getByRole('link', { name: 'Back to the back office' }));
    expect(await screen.findByRole('heading', { name: 'Back office' })).toBeInTheDocument();
    expect(await within(card('Orders')).findByText('7')).toBeInTheDocument();
  });
});
