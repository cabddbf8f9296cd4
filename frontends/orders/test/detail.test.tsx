import { http } from '@decor/web-core';
import { type ApiServer, demoUser, type Reply, startApiServer } from '@decor/web-core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '../src/features/orders/types';
import { anOrder, renderOrders, staffUser } from './support';

const LESS_THAN_3_DAYS =
  'This event will occur in less than 3 days. If you need to change your order please contact us.';

describe('order detail', () => {
  let server: ApiServer;
  let estimate: Order;
  let invoice: Order;
  let putReply: Reply;

  beforeAll(async () => {
    server = await startApiServer();
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    estimate = anOrder();
    invoice = anOrder({ id: 'i1', DocNumber: '5001', EstimateId: 'e1', hasInvoice: undefined });
    putReply = { body: { result: { id: 'e1' } } };
    server.routes.clear();
    server.routes.set('GET /estimate/e1', () => ({
      body: { result: estimate },
      headers: { 'can-be-modified': String(estimate.actions?.edit?.allowed ?? false) },
    }));
    server.routes.set('GET /invoice/i1', () => ({ body: { result: invoice } }));
    server.routes.set('PUT /estimate/e1', () => putReply);
    server.routes.set('PUT /invoice/i1', () => putReply);
    // The customer's active cart (Copy Cart's target).
    server.routes.set('GET /cart', () => ({
      body: { result: [{ ...demoUser.cart, isActive: true, didCheckOut: false, CartProducts: [] }] },
    }));
  });

  const puts = () => server.requests.filter((r) => r.method === 'PUT');

  async function openOptions() {
    await userEvent.click(await screen.findByRole('button', { name: /Options/ }));
    return screen.findByRole('menu');
  }

  it('shows the Cart, Event Details and (only when filled) Will Call Details cards', async () => {
    const view = renderOrders('/orders/estimate/e1');
    expect(await screen.findByRole('heading', { name: 'Estimate #1001' })).toBeInTheDocument();
    const cart = screen.getByRole('region', { name: 'Cart' });
    expect(within(cart).getByText('Mirrored Bar Front')).toBeInTheDocument();
    expect(within(cart).getByTestId('order-subtotal')).toHaveTextContent('$500.00');
    expect(within(cart).getByTestId('order-trucking-fee')).toHaveTextContent('$350.00');
    expect(within(cart).getByTestId('order-sales-tax')).toHaveTextContent('$68.85');
    expect(within(cart).getByTestId('order-total')).toHaveTextContent('$918.85');
    const event = screen.getByRole('region', { name: 'Event Details' });
    expect(within(event).getByText('Smith wedding')).toBeInTheDocument();
    expect(within(event).getByText('Thursday, June 20th, 2030')).toBeInTheDocument();
    expect(within(event).getByText('5:30 PM')).toBeInTheDocument();
    // Only the (server-set) will-call name: no card.
    expect(screen.queryByRole('region', { name: 'Will Call Details' })).not.toBeInTheDocument();
    // Customers: no customer link, no QuickBooks status, no session banner of their own.
    expect(screen.queryByTestId('qbo-status')).not.toBeInTheDocument();
    view.unmount();

    estimate = anOrder({ willCallPickupDate: '2030-06-19' });
    renderOrders('/orders/estimate/e1');
    const willCall = await screen.findByRole('region', { name: 'Will Call Details' });
    expect(within(willCall).getByText('Wednesday, June 19th, 2030')).toBeInTheDocument();
  });

  it("a failed fetch says 'An error occurred while fetching the order'", async () => {
    server.routes.set('GET /estimate/e1', () => ({ status: 500, body: { message: 'boom' } }));
    renderOrders('/orders/estimate/e1');
    expect(await screen.findByText('An error occurred while fetching the order')).toBeInTheDocument();
  });

  it("disabled actions carry the server's reason as their tooltip; customers get no staff actions", async () => {
    estimate = anOrder({
      status: 'Pending',
      actions: {
        edit: { allowed: false, reason: LESS_THAN_3_DAYS },
        requestInvoice: {
          allowed: false,
          reason: 'You may request an invoice once your estimate has been approved.',
        },
        sendToQbo: { allowed: false },
        updateInQbo: { allowed: false },
        complete: { allowed: false },
        cancel: { allowed: true },
      },
    });
    renderOrders('/orders/estimate/e1');
    const menu = await openOptions();
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Edit', 'Request Invoice', 'Cancel Order', 'Copy Cart']);
    const edit = within(menu).getByRole('menuitem', { name: 'Edit' });
    expect(edit).toHaveAttribute('aria-disabled', 'true');
    expect(within(menu).getByRole('menuitem', { name: 'Cancel Order' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await userEvent.hover(within(edit).getByText('Edit'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(LESS_THAN_3_DAYS);
    await userEvent.unhover(within(edit).getByText('Edit'));
    await userEvent.hover(within(menu).getByText('Request Invoice'));
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('tooltip')
          .some((t) => t.textContent === 'You may request an invoice once your estimate has been approved.'),
      ).toBe(true),
    );
    // A click on a disabled action does nothing.
    await userEvent.click(edit);
    expect(screen.queryByRole('button', { name: 'Update Order' })).not.toBeInTheDocument();
  });

  it('Edit, then Update Order sends only the changed fields; nothing changed only leaves edit mode; Cancel discards', async () => {
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    // Nothing changed: no call, back to the cards.
    await userEvent.click(await screen.findByRole('button', { name: 'Update Order' }));
    expect(await screen.findByRole('region', { name: 'Event Details' })).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    // Cancel discards.
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await userEvent.clear(await screen.findByLabelText('Room'));
    await userEvent.type(screen.getByLabelText('Room'), 'Somewhere else');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const event = await screen.findByRole('region', { name: 'Event Details' });
    expect(within(event).getByText('Ballroom')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    // A change is sent alone.
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(await screen.findByLabelText('Room')).toHaveValue('Ballroom');
    // A customer may change quantities and remove lines, but has no quick add.
    expect(screen.getByLabelText('Quantity of Mirrored Bar Front')).toHaveValue('2');
    expect(screen.queryByRole('region', { name: 'Quick add' })).not.toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Room'));
    await userEvent.type(screen.getByLabelText('Room'), 'Terrace');
    await userEvent.clear(screen.getByLabelText('Operations Manager'));
    await userEvent.type(screen.getByLabelText('Operations Manager'), 'Jo');
    await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
    expect(await screen.findByText('Your order has been updated!')).toBeInTheDocument();
    expect(puts()).toHaveLength(1);
    expect(puts()[0]?.url).toBe('/api/estimate/e1');
    expect(puts()[0]?.body).toEqual({ room: 'Terrace', operationsManager: 'Jo' });
  });

  it('a required field left empty is refused on the spot (focused, nothing sent)', async () => {
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await userEvent.clear(await screen.findByLabelText('Group Name'));
    await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Group Name')).toHaveFocus());
    expect(puts()).toHaveLength(0);
    // The read-only customer names (event and will call) cannot be changed.
    const names = screen.getAllByDisplayValue('Evergreen Weddings');
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toBeDisabled();
  });

  it('a refused update says so (estimate and invoice wording)', async () => {
    putReply = { status: 409, body: { message: 'nope' } };
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await userEvent.type(await screen.findByLabelText('Room'), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
    expect(await screen.findByText('There was an error while submitting your request')).toBeInTheDocument();
    // Still editing, nothing lost.
    expect(screen.getByLabelText('Room')).toHaveValue('Ballroom!');
  });

  it('staff edit quantities too: the lines go as products and quantities', async () => {
    renderOrders('/admin/orders/estimate/e1', staffUser);
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const qty = await screen.findByLabelText('Quantity of Mirrored Bar Front');
    await userEvent.clear(qty);
    await userEvent.type(qty, '3');
    // The preview follows with the server's own rule: 750 + 350 trucking, 8.1 % tax.
    const cart = screen.getByRole('region', { name: 'Cart' });
    await waitFor(() => expect(within(cart).getByTestId('order-sales-tax')).toHaveTextContent('$89.10'));
    expect(within(cart).getByTestId('order-total')).toHaveTextContent('$1,189.10');
    await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body).toEqual({ CartProducts: [{ id: 'BAR-FR-001', qty: 3 }] });
  });

  describe('quick add (staff)', () => {
    const labor = { id: 'LABOR', name: 'Labor', description: 'Crew', price: 0, quantity: 999, Images: [] };
    const linen = { id: 'LIN-1', name: 'Linen', description: 'White', price: 12.5, quantity: 4, Images: [] };
    const productGets = () =>
      server.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/product'));

    async function editAsStaff() {
      renderOrders('/admin/orders/estimate/e1', staffUser);
      await openOptions();
      await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
      return screen.findByRole('region', { name: 'Quick add' });
    }

    async function pick(region: HTMLElement, typed: string, label: RegExp) {
      await userEvent.type(within(region).getByRole('combobox', { name: 'Product to add' }), typed);
      // The search waits for the typing to pause: the list of every product in stock is still
      // shown until it has been sent.
      await waitFor(() => expect(productGets().at(-1)?.url).toContain(`like=name%3A${typed}`));
      await userEvent.click(await screen.findByTitle(label));
    }

    it('adds products in stock, removes a line, and sends products and quantities only', async () => {
      server.routes.set('GET /product', (r) => ({
        body: { result: r.url.includes('like=name%3ALa') ? [labor] : [labor, linen] },
      }));
      const region = await editAsStaff();
      await pick(region, 'La', /Labor/);
      expect(productGets().at(-1)?.url).toMatch(/gt=quantity%3A0/);
      expect(productGets().at(-1)?.url).toMatch(/like=name%3ALa/);
      await userEvent.click(within(region).getByRole('button', { name: 'Add' }));
      await pick(region, 'Li', /Linen/);
      const qty = within(region).getByLabelText('Quantity to add');
      await userEvent.clear(qty);
      await userEvent.type(qty, '9'); // more than the 4 in stock: held at 4
      await userEvent.click(within(region).getByRole('button', { name: 'Add' }));
      await userEvent.click(screen.getByRole('button', { name: 'Remove Mirrored Bar Front' }));
      const cart = screen.getByRole('region', { name: 'Cart' });
      expect(within(cart).getByTestId('order-subtotal')).toHaveTextContent('$50.00');
      await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
      await waitFor(() => expect(puts()).toHaveLength(1));
      expect(puts()[0]?.body).toEqual({
        CartProducts: [
          { id: 'LABOR', qty: 1 },
          { id: 'LIN-1', qty: 4 },
        ],
      });
    }, 180_000); // many keystrokes into antd controls: slow under jsdom on a busy machine

    it("says 'Failed to load products for quick add', and on a failed search the spec's other sentence", async () => {
      server.routes.set('GET /product', () => ({ status: 500, body: { message: 'down' } }));
      const region = await editAsStaff();
      expect(await within(region).findByText('Failed to load products for quick add')).toBeInTheDocument();
      await userEvent.type(within(region).getByRole('combobox', { name: 'Product to add' }), 'Ch');
      expect(
        await within(region).findByText('An error occurred while fetching the products'),
      ).toBeInTheDocument();
    });

    it("shows the server's reason under the update error, and the last line cannot be removed", async () => {
      putReply = { status: 400, body: { message: 'Only 3 of Mirrored Bar Front are available' } };
      await editAsStaff();
      expect(screen.getByRole('button', { name: 'Remove Mirrored Bar Front' })).toBeDisabled();
      const qty = screen.getByLabelText('Quantity of Mirrored Bar Front');
      await userEvent.clear(qty);
      await userEvent.type(qty, '5');
      await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
      expect(await screen.findByText('There was an error while submitting your request')).toBeInTheDocument();
      expect(screen.getByText('Only 3 of Mirrored Bar Front are available')).toBeInTheDocument();
    });
  });

  it('the cancel-order modal voids the order after confirmation', async () => {
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Cancel Order' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Cancel this order?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
    expect(puts()).toHaveLength(0);
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Cancel Order' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, cancel the order' }));
    expect(await screen.findByText('The order has been cancelled.')).toBeInTheDocument();
    expect(puts().map((r) => r.body)).toEqual([{ status: 'Voided' }]);
  });

  it('Request Invoice posts the estimate id with an Idempotency-Key; a failure has its own text', async () => {
    let reply: Reply = { status: 500, body: { message: 'boom' } };
    server.routes.set('POST /invoice', () => reply);
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Request Invoice' }));
    expect(await screen.findByText('There was an error while requesting the invoice')).toBeInTheDocument();
    reply = { status: 201, body: { result: { id: 'i1' } } };
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Request Invoice' }));
    expect(await screen.findByText('Your invoice has been requested!')).toBeInTheDocument();
    const posts = server.requests.filter((r) => r.method === 'POST' && r.url === '/api/invoice');
    expect(posts.map((r) => r.body)).toEqual([{ EstimateId: 'e1' }, { EstimateId: 'e1' }]);
    const key = posts[0]?.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The retry of the failed request is the same request.
    expect(posts[1]?.headers['idempotency-key']).toBe(key);
  });

  it("Copy Cart copies the order's cart into the active cart; a failure says so", async () => {
    server.routes.set(`PUT /cart/cart-9/copy/${demoUser.cart.id}`, () => ({ status: 500, body: {} }));
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Copy Cart' }));
    expect(await screen.findByText('An error occurred while copying the cart')).toBeInTheDocument();
    expect(puts().map((r) => r.url)).toEqual(['/api/cart/cart-9/copy/cart-1']);
  });

  it('the success banner shows for 2500 ms', async () => {
    // The banner's timer starts once the answer is in, so no sooner than this (a time read when the
    // test noticed the banner can be late on a loaded run: the wait polls).
    let answeredAt = 0;
    server.routes.set(`PUT /cart/cart-9/copy/${demoUser.cart.id}`, () => {
      answeredAt = Date.now();
      return { body: { result: {} } };
    });
    // A plain wrapper, not a jest mock (testing-library would take a mocked setTimeout for fake timers).
    const delays: (number | undefined)[] = [];
    const realSetTimeout = window.setTimeout;
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
      delays.push(delay);
      return realSetTimeout(handler, delay, ...rest);
    }) as typeof window.setTimeout;
    renderOrders('/orders/estimate/e1');
    await openOptions();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Copy Cart' }));
    const banner = await screen.findByText("The order's cart has been copied into your active cart!");
    window.setTimeout = realSetTimeout;
    expect(delays).toContain(2500);
    await waitFor(() => expect(banner).not.toBeInTheDocument(), { timeout: 6000 });
    // Less a little: Node starts a timer from the event loop's cached clock, a few ms behind Date.now().
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(2500 - 100);
  });

  it('staff: customer link, QuickBooks status, linked invoice, Pending Update and Update it in Quickbooks', async () => {
    // Still Open: a modified order in QuickBooks reads Pending Update to staff (a terminal one its status).
    estimate = anOrder({ hasInvoice: true, hasBeenModified: true, status: 'Open' });
    server.routes.set('GET /invoice', () => ({ body: { result: [invoice] }, headers: { total_count: '1' } }));
    server.routes.set('PUT /qbo/estimate/', () => {
      // Queued: QuickBooks is done a moment later (the order is no longer modified).
      setTimeout(() => {
        estimate = { ...estimate, hasBeenModified: false };
      }, 300);
      return { status: 202, body: { result: { queued: true } } };
    });
    renderOrders('/admin/orders/estimate/e1', staffUser);
    expect(await screen.findByRole('link', { name: 'Casey Customer (Evergreen Weddings)' })).toHaveAttribute(
      'href',
      `/admin/users/${demoUser.id}`,
    );
    expect(screen.getByTestId('qbo-status')).toHaveTextContent('In QuickBooks (#77), changes not yet sent');
    expect(screen.getByText('Pending Update')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '#5001' })).toHaveAttribute(
      'href',
      '/admin/orders/invoice/i1',
    );
    const lookup = server.requests.find((r) => r.url.startsWith('/api/invoice?'));
    expect(new URL(lookup?.url ?? '', 'http://x').searchParams.get('EstimateId')).toBe('e1');

    const menu = await openOptions();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Edit', 'Request Invoice', 'Send to QuickBooks', 'Update it in Quickbooks', 'Cancel Order']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Update it in Quickbooks' }));
    expect(await screen.findByText('The order is being updated in QuickBooks.')).toBeInTheDocument();
    const sync = server.requests.find((r) => r.url === '/api/qbo/estimate/');
    expect(sync?.method).toBe('PUT');
    expect(sync?.body).toEqual({ id: 'e1' });
    // The screen reads the order again until QuickBooks is done.
    await waitFor(
      () => expect(screen.getByTestId('qbo-status')).toHaveTextContent('In QuickBooks (#77), up to date'),
      { timeout: 8000 },
    );
    expect(screen.queryByText('Pending Update')).not.toBeInTheDocument();
  });

  it('a failed linked-invoice lookup has its own text', async () => {
    estimate = anOrder({ hasInvoice: true, status: 'Closed' });
    server.routes.set('GET /invoice', () => ({ status: 500, body: {} }));
    renderOrders('/orders/estimate/e1');
    expect(await screen.findByText('There was an error while requesting the invoice')).toBeInTheDocument();
  });

  it('an invoice: link to its estimate; staff complete it; a refusal has the invoice wording; a QuickBooks session refusal shows the banner', async () => {
    putReply = { status: 409, body: { message: 'no' } };
    server.routes.set('POST /qbo/invoice', () => ({
      status: 401,
      body: { message: 'QuickBooks session expired' },
      headers: { 'qbo-session-expired': 'true' },
    }));
    invoice = anOrder({ id: 'i1', DocNumber: '5001', EstimateId: 'e1', isInQbo: false, qboId: null });
    invoice.actions = { ...invoice.actions, sendToQbo: { allowed: true } };
    renderOrders('/orders/invoice/i1', staffUser);
    expect(await screen.findByRole('heading', { name: 'Invoice #5001' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'its estimate' })).toHaveAttribute('href', '/orders/estimate/e1');
    expect(screen.getByTestId('qbo-status')).toHaveTextContent('Not in QuickBooks yet');
    let menu = await openOptions();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Edit', 'Send to QuickBooks', 'Update it in Quickbooks', 'Complete Order', 'Cancel Order']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Complete Order' }));
    expect(await screen.findByText('There was an error while updating the invoice')).toBeInTheDocument();
    expect(puts().map((r) => r.body)).toEqual([{ status: 'Completed' }]);

    menu = await openOptions();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Send to QuickBooks' }));
    expect(
      await screen.findByText('Your session with QuickBooks has expired, and the request was not completed!'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Click here' })).toBeInTheDocument();
  });
});
