/**
 * /admin/availability (issue 15): the month calendar (booked / owned per product and day, days over
 * the units owned marked), month and category in the address, a cell opening the orders that hold
 * that day, and the conflicts with sub-rentals marked.
 */
import { createAppStore, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation } from '@decor/web-core/router';
import { type ApiServer, demoUser, type Recorded, startApiServer } from '@decor/web-core/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import BackOffice from '../src/BackOffice';

const query = (r: Recorded) => Object.fromEntries(new URL(r.url, 'http://x').searchParams);

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{pathname + search}</output>;
}

describe('/admin/availability', () => {
  let server: ApiServer;
  let conflicts: unknown = { result: [] };

  beforeAll(async () => {
    server = await startApiServer({
      'GET /availability/calendar': (r) => {
        const { month, category } = query(r);
        const first = `${month}-01`;
        const last = month === '2027-02' ? '2027-02-28' : `${month}-31`;
        const days = Number(last.slice(8));
        const chairs = Array.from({ length: days }, (_, i) => (i === 8 ? 14 : i === 9 ? 6 : 0));
        const products = [
          { id: 'CHAIR-1', name: 'Chiavari Chairs', category: 'SEATING', owned: 12, booked: chairs },
          { id: 'BAR-1', name: 'Mirrored Bar', category: 'BARS', owned: 2, booked: chairs.map(() => 0) },
        ].filter((p) => !category || p.category === category);
        return { body: { result: { first, last, products } } };
      },
      'GET /availability/holds': () => ({
        body: {
          result: [
            {
              orderId: 'e1',
              DocNumber: '1001',
              qty: 10,
              first: '2027-01-08',
              last: '2027-01-10',
              overbooked: false,
              subRental: null,
            },
            {
              orderId: 'e2',
              DocNumber: '1002',
              qty: 4,
              first: '2027-01-09',
              last: '2027-01-09',
              overbooked: true,
              subRental: { by: 'ana@shop.com', at: new Date(2027, 0, 2, 10).toISOString(), lines: [] },
            },
          ],
        },
      }),
      'GET /availability/conflicts': () => ({ body: conflicts }),
      'GET /categories': () => ({
        body: {
          result: {
            categories: [
              { Id: '1', Name: 'BARS' },
              { Id: '2', Name: 'SEATING' },
            ],
            subcategories: [],
          },
        },
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
  });

  const renderAt = (path: string) => {
    const store = createAppStore();
    store.dispatch(signedIn({ user: { ...demoUser, permissions: 'admin' }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/*" element={<BackOffice />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </Provider>,
    );
  };
  const calendarAsked = () => server.requests.filter((r) => r.url.startsWith('/api/availability/calendar'));

  it('shows booked / owned per product and day, the days over the units owned marked', async () => {
    renderAt('/admin/availability?month=2027-01');
    expect(await screen.findByRole('heading', { name: 'January 2027' })).toBeInTheDocument();
    const over = await screen.findByRole('button', {
      name: 'Chiavari Chairs, Saturday, January 9th, 2027: 14/12 booked, over',
    });
    expect(over).toHaveTextContent('14/12');
    expect(over).toHaveAttribute('data-over', 'true');
    const within10 = screen.getByRole('button', {
      name: 'Chiavari Chairs, Sunday, January 10th, 2027: 6/12 booked',
    });
    expect(within10).not.toHaveAttribute('data-over');
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(query(calendarAsked()[0] as Recorded)).toEqual({ month: '2027-01' });
  });

  it('moves between months and filters by category, both kept in the address', async () => {
    renderAt('/admin/availability?month=2027-01');
    await screen.findByRole('heading', { name: 'January 2027' });
    await userEvent.click(screen.getByRole('button', { name: 'Next month' }));
    expect(await screen.findByRole('heading', { name: 'February 2027' })).toBeInTheDocument();
    await screen.findByRole('button', { name: /^Mirrored Bar, Sunday, February 28th, 2027/ });
    await userEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    await userEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(await screen.findByRole('heading', { name: 'December 2026' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByTitle('BARS'));
    await waitFor(() =>
      expect(screen.getByLabelText('location')).toHaveTextContent('month=2026-12&category=BARS'),
    );
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.queryByText('Chiavari Chairs')).not.toBeInTheDocument();
    expect(query(calendarAsked().at(-1) as Recorded)).toEqual({ month: '2026-12', category: 'BARS' });
  });

  it('a cell opens the orders holding that day, each linked to its page, a sub-rental marked', async () => {
    renderAt('/admin/availability?month=2027-01');
    await userEvent.click(
      await screen.findByRole('button', { name: /^Chiavari Chairs, Saturday, January 9th, 2027/ }),
    );
    // (antd's ids are all 'test-id' under jest: the dialog is found by role, its title by text.)
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Chiavari Chairs on Saturday, January 9th, 2027')).toBeInTheDocument();
    const first = await within(dialog).findByRole('link', { name: 'Estimate #1001' });
    expect(first).toHaveAttribute('href', '/admin/orders/estimate/e1');
    expect(first.closest('li')).toHaveTextContent(
      'Estimate #1001 — 10 units, Friday, January 8th, 2027 to Sunday, January 10th, 2027',
    );
    const second = within(dialog).getByRole('link', { name: 'Estimate #1002' }).closest('li') as HTMLElement;
    expect(within(second).getByText('Sub-rental')).toBeInTheDocument();
    expect(within(first.closest('li') as HTMLElement).queryByText('Sub-rental')).not.toBeInTheDocument();
    expect(
      query(server.requests.find((r) => r.url.startsWith('/api/availability/holds')) as Recorded),
    ).toEqual({
      id: 'CHAIR-1',
      day: '2027-01-09',
    });
  });

  it('the conflicts tab lists days booked beyond stock with their orders; none says so', async () => {
    conflicts = { result: [] };
    renderAt('/admin/availability?tab=conflicts');
    expect(await screen.findByText('No day is booked beyond the units the shop owns')).toBeInTheDocument();
    conflicts = {
      result: [
        {
          id: 'CHAIR-1',
          name: 'Chiavari Chairs',
          owned: 12,
          first: '2027-01-09',
          last: '2027-01-09',
          peak: 14,
          orders: [
            { orderId: 'e1', DocNumber: '1001', qty: 10, overbooked: false, subRental: null },
            {
              orderId: 'e2',
              DocNumber: '1002',
              qty: 4,
              overbooked: true,
              subRental: { by: 'ana@shop.com', at: new Date(2027, 0, 2, 10).toISOString(), lines: [] },
            },
          ],
        },
      ],
    };
    await userEvent.click(screen.getByRole('tab', { name: 'Calendar' }));
    await userEvent.click(screen.getByRole('tab', { name: 'Conflicts' }));
    const list = await screen.findByRole('list', { name: 'Conflicts' });
    expect(
      within(list).getByRole('heading', { name: 'Chiavari Chairs: 14 booked, 12 owned' }),
    ).toBeInTheDocument();
    expect(within(list).getByText('Saturday, January 9th, 2027')).toBeInTheDocument();
    const subRental = within(list).getByRole('link', { name: 'Estimate #1002' }).closest('li') as HTMLElement;
    expect(within(subRental).getByText('Sub-rental')).toBeInTheDocument();
    // The confirmation recorded on the order: who and when.
    expect(
      within(subRental).getByText('Sub-rental confirmed by ana@shop.com on Saturday, January 2nd, 2027'),
    ).toBeInTheDocument();
    const plain = within(list).getByRole('link', { name: 'Estimate #1001' }).closest('li') as HTMLElement;
    expect(within(plain).queryByText(/Sub-rental/)).toBeNull();
  });

  it('a failed calendar says so', async () => {
    server.routes.set('GET /availability/calendar', () => ({ status: 503, body: { message: 'down' } }));
    renderAt('/admin/availability?month=1999-01');
    expect(await screen.findByText('The availability calendar could not be loaded')).toBeInTheDocument();
  });
});
