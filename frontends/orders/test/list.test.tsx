import { http } from '@decor/web-core';
import {
  type ApiServer,
  installIntersectionObserver,
  type Recorded,
  startApiServer,
} from '@decor/web-core/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OrdersList } from '../src/features/orders/routes';
import type { Order } from '../src/features/orders/types';
import { anOrder, renderElement, renderOrders, staffUser } from './support';

/** 45 estimates, newest first: DocNumber 1045 … 1001. */
const ESTIMATES: Order[] = Array.from({ length: 45 }, (_, i) => {
  const n = 1045 - i;
  return anOrder({
    id: `e${n}`,
    DocNumber: String(n),
    groupName: `Group ${n}`,
    status: n % 5 === 0 ? 'Pending' : 'Open',
    hasBeenModified: n === 1044,
  });
});
const INVOICES: Order[] = [
  anOrder({ id: 'i1', DocNumber: '5001', EstimateId: 'e1001', groupName: 'Invoice group' }),
];

const rows = () => document.querySelectorAll('tbody tr.ant-table-row');
const docLink = (n: string) => screen.queryByText(n, { selector: 'a' });
const findDocLink = (n: string) => screen.findByText(n, { selector: 'a' });

function query(request: Recorded) {
  return new URL(request.url, 'http://x').searchParams;
}

function listReply(all: Order[]) {
  return (request: Recorded) => {
    const q = query(request);
    let rows = all;
    const status = q.get('status');
    if (status) rows = rows.filter((o) => o.status === status);
    if (q.get('hasBeenModified') === 'true') rows = rows.filter((o) => o.hasBeenModified);
    const like = q.get('like');
    if (like?.startsWith('DocNumber:')) rows = rows.filter((o) => o.DocNumber.startsWith(like.slice(10)));
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit') ?? 20);
    return {
      body: { result: rows.slice(offset, offset + limit) },
      headers: { total_count: String(rows.length) },
    };
  };
}

describe('orders list', () => {
  let server: ApiServer;
  let scroll: ReturnType<typeof installIntersectionObserver>;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /estimate': listReply(ESTIMATES),
      'GET /invoice': listReply(INVOICES),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.routes.set('GET /estimate', listReply(ESTIMATES));
    scroll = installIntersectionObserver();
  });
  afterEach(() => scroll.uninstall());

  const listCalls = (path: string) => server.requests.filter((r) => r.url.split('?')[0] === `/api${path}`);

  it('shows the heading, the estimates 20 at a time newest first, and more when the bottom is reached', async () => {
    renderOrders('/orders');
    expect(screen.getByRole('heading', { name: 'Orders' })).toBeInTheDocument();
    expect(await findDocLink('1045')).toHaveAttribute('href', '/orders/estimate/e1045');
    expect(rows()).toHaveLength(20); // header + 20
    expect(Object.fromEntries(query(listCalls('/estimate')[0] as Recorded))).toEqual({
      limit: '20',
      offset: '0',
      order: 'createdAt:DESC',
    });
    // Modified orders read 'Pending Approval' to customers; no Customer/Company column for them.
    expect(screen.getByText('Pending Approval')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Customer/Company' })).not.toBeInTheDocument();

    act(() => scroll.reachBottom());
    expect(await findDocLink('1025')).toBeInTheDocument();
    expect(rows()).toHaveLength(40);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Load more' })).toBeEnabled());
    act(() => scroll.reachBottom());
    expect(await findDocLink('1001')).toBeInTheDocument();
    expect(rows()).toHaveLength(45);
    expect(listCalls('/estimate').map((r) => query(r).get('offset'))).toEqual(['0', '20', '40']);
    // All 45 loaded: nothing more to ask for.
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    act(() => scroll.reachBottom());
    expect(listCalls('/estimate')).toHaveLength(3);
  });

  it('the Invoices tab lists invoices with its own search box', async () => {
    renderOrders('/orders');
    await findDocLink('1045');
    expect(screen.getByRole('searchbox', { name: 'Search by estimate ID' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Invoices' }));
    expect(await findDocLink('5001')).toHaveAttribute('href', '/orders/invoice/i1');
    expect(screen.getByRole('searchbox', { name: 'Search by invoice ID' })).toBeInTheDocument();
    expect(docLink('1045')).not.toBeInTheDocument();
  });

  it('searches by DocNumber prefix', async () => {
    renderOrders('/orders');
    await findDocLink('1045');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search by estimate ID' }), '102');
    await waitFor(() => expect(docLink('1045')).not.toBeInTheDocument());
    expect(docLink('1029')).toBeInTheDocument();
    expect(rows()).toHaveLength(10); // 1020 … 1029
    expect(query(listCalls('/estimate').at(-1) as Recorded).get('like')).toBe('DocNumber:102');
  });

  it('filters by status and by modified', async () => {
    renderOrders('/orders');
    await findDocLink('1045');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Filter by status' }));
    await userEvent.click(await screen.findByTitle('Pending'));
    await waitFor(() => expect(docLink('1044')).not.toBeInTheDocument());
    expect(docLink('1040')).toBeInTheDocument();
    expect(query(listCalls('/estimate').at(-1) as Recorded).get('status')).toBe('Pending');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Filter by status' }));
    await userEvent.click(await screen.findByTitle('Pending Approval'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(docLink('1044')).toBeInTheDocument();
    const last = query(listCalls('/estimate').at(-1) as Recorded);
    expect(last.get('hasBeenModified')).toBe('true');
    expect(last.get('status')).toBeNull();
  });

  it("says 'Nothing was found' when empty", async () => {
    renderOrders('/orders');
    await findDocLink('1045');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search by estimate ID' }), '9');
    expect(await screen.findByText('Nothing was found')).toBeInTheDocument();
  });

  it('shows the loading state, then the error text when the list fails', async () => {
    let release: () => void = () => {};
    server.routes.set(
      'GET /estimate',
      () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 500, body: { message: 'boom' } });
        }),
    );
    renderOrders('/orders');
    expect(await screen.findByRole('status', { name: 'Loading orders' })).toBeInTheDocument();
    await waitFor(() => expect(listCalls('/estimate')).toHaveLength(1));
    release();
    expect(await screen.findByText('An error occurred while retrieving your orders')).toBeInTheDocument();
    expect(screen.queryByText('Nothing was found')).not.toBeInTheDocument();
  });

  it('staff see the Customer/Company column linking to the user, and Pending Update', async () => {
    renderOrders('/admin/orders', staffUser);
    const first = await findDocLink('1045');
    expect(first).toHaveAttribute('href', '/admin/orders/estimate/e1045');
    expect(screen.getByRole('columnheader', { name: 'Customer/Company' })).toBeInTheDocument();
    const row = first.closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Casey Customer / Evergreen Weddings' })).toHaveAttribute(
      'href',
      `/admin/users/${ESTIMATES[0]?.UserId}`,
    );
    expect(screen.getByText('Pending Update')).toBeInTheDocument();
  });

  it("on a customer's page (back office) the list is that user's orders, without its own heading", async () => {
    renderElement(<OrdersList staff base="/admin/orders" userId="u-42" embedded />, staffUser);
    await findDocLink('1045');
    expect(screen.queryByRole('heading', { name: 'Orders' })).not.toBeInTheDocument();
    expect(query(listCalls('/estimate')[0] as Recorded).get('UserId')).toBe('u-42');
  });
});
