import { createAppStore, http, signedIn, useActiveCart } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { EventForm } from '../src/features/checkout/components/EventForm';
import { Summary } from '../src/features/checkout/components/Summary';
import { CartView, EMPTY_CART_LINK } from '../src/shared/cart/CartView';
import type { CheckoutState } from '../src/shared/cart/checkout-state';

const line = (over: Record<string, unknown> = {}) => ({
  id: 'BAR-FR-001',
  CartId: 'cart-1',
  CartProductId: 'line-1',
  name: 'Mirrored Bar Front',
  description: 'Six-foot bar front',
  qty: 2,
  price: 250,
  total: 500,
  quantity: 4,
  qboId: null,
  ...over,
});
const cart = (over: Record<string, unknown> = {}) => ({
  id: 'cart-1',
  UserId: demoUser.id,
  cartName: 'Spring gala',
  isActive: true,
  didCheckOut: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  cartTotal: 500,
  CartProducts: [line()],
  ...over,
});

function Where() {
  const { pathname, state } = useLocation();
  return (
    <>
      <output aria-label="location">{pathname}</output>
      <output aria-label="carried event">
        {JSON.stringify((state as CheckoutState | null)?.event ?? null)}
      </output>
    </>
  );
}

/** What the badge and the checkout read: the session's active cart. */
function ActiveCartId() {
  return <output aria-label="active cart">{useActiveCart().cart?.id ?? ''}</output>;
}

function renderAt(path: string, element: React.ReactNode, state?: CheckoutState) {
  const store = createAppStore();
  store.dispatch(signedIn({ user: demoUser, token: 'jwt' }));
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        <Routes>
          <Route path={path} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('checkout screens', () => {
  let server: ApiServer;
  const carts = new Map<string, unknown>();
  let activeCart: unknown = cart();
  let lineReply: () => { status: number; body: unknown } = () => ({ status: 200, body: { result: cart() } });

  beforeAll(async () => {
    server = await startApiServer({
      'GET /cart/cart-1/products': () => ({ body: { result: [carts.get('cart-1')] } }),
      'POST /cart/cart-1/cartProduct/BAR-FR-001': () => lineReply(),
      'POST /estimate': () => ({ status: 201, body: { result: { id: 'e1', DocNumber: '1001' } } }),
      // The active cart: the submitted one until the cart service has opened the next.
      'GET /cart': () => ({ body: { result: [activeCart] } }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    activeCart = cart();
  });
  const activeCartAsked = () =>
    server.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/cart?')).length;

  it("an empty cart says 'Your cart is empty' with a link to /inventory/BARS/Bar%20Front", async () => {
    carts.set('cart-1', cart({ CartProducts: [], cartTotal: 0 }));
    renderAt('/checkout/cart', <CartView cartId="cart-1" />);
    expect(await screen.findByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse the inventory' })).toHaveAttribute(
      'href',
      EMPTY_CART_LINK,
    );
    expect(EMPTY_CART_LINK).toBe('/inventory/BARS/Bar%20Front');
  });

  it('shows the lines and the total; Next only for the active cart', async () => {
    carts.set('cart-1', cart());
    renderAt('/checkout/cart', <CartView cartId="cart-1" />);
    expect(await screen.findByText('Mirrored Bar Front')).toBeInTheDocument();
    expect(screen.getByTestId('cart-total')).toHaveTextContent('Total: $500.00');
    expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument();
  });

  it('an inactive cart has no Next', async () => {
    carts.set('cart-1', cart({ isActive: false }));
    renderAt('/carts/cart-1', <CartView cartId="cart-1" />);
    expect(await screen.findByText('Mirrored Bar Front')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('a quantity change calls the server first; a refusal shows the cart error and keeps the quantity', async () => {
    carts.set('cart-1', cart());
    lineReply = () => ({ status: 409, body: { message: 'Only 4 in stock' } });
    renderAt('/checkout/cart', <CartView cartId="cart-1" />);
    const input = await screen.findByLabelText('Quantity of Mirrored Bar Front');
    fireEvent.change(input, { target: { value: '3' } });
    expect(await screen.findByText('there was an error while updating the cart')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ qty: 3, price: 250 });
    fireEvent.blur(input);
    await waitFor(() => expect(input).toHaveValue('2'));
  });

  it('the summary without carried state goes home', () => {
    renderAt('/checkout/summary', <Summary />);
    expect(screen.getByLabelText('location')).toHaveTextContent('/');
  });

  const carried: CheckoutState = {
    cartId: 'cart-1',
    event: {
      customerName: 'Evergreen Weddings',
      groupName: 'Smith wedding',
      eventDate: '2030-06-20',
      location: 'Grand Hall',
      eventStartTime: '17:30',
      strikeTime: '23:15',
    },
    willCall: { willCallCustomerName: 'Evergreen Weddings' },
  };

  it('Enter in a time picker confirms the typed time without submitting the event form', async () => {
    renderAt('/checkout/event', <EventForm activeCartId="cart-1" />, carried);
    const start = screen.getByLabelText('Event Start Time');
    const openPanels = () =>
      document.querySelectorAll('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
    expect(start).toHaveValue('5:30 PM');
    await userEvent.click(start);
    await waitFor(() => expect(openPanels()).toHaveLength(1));
    await userEvent.keyboard('{Control>}a{/Control}7:45 PM{Enter}');
    expect(start).toHaveValue('7:45 PM');
    await waitFor(() => expect(openPanels()).toHaveLength(0));
    expect(screen.getByLabelText('location')).toHaveTextContent('/checkout/event');
    // Enter on the closed picker still opens its panel (rc-picker's own Enter handling is left alone).
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(openPanels()).toHaveLength(1));
    expect(screen.getByLabelText('location')).toHaveTextContent('/checkout/event');
    // Enter in a plain text input still submits (antd's default), carrying the confirmed time.
    await userEvent.type(screen.getByLabelText('Room'), 'Ballroom{Enter}');
    await waitFor(() => expect(screen.getByLabelText('location')).toHaveTextContent('/checkout/summary'));
    const event = JSON.parse(screen.getByLabelText('carried event').textContent ?? 'null');
    expect(event).toMatchObject({ eventStartTime: '19:45', room: 'Ballroom', strikeTime: '23:15' });
  });

  it('formats dates and times, hides will call with fewer than two values, and needs the agreement', async () => {
    carts.set('cart-1', cart());
    renderAt('/checkout/summary', <Summary />, carried);
    expect(await screen.findByTestId('summary-total')).toHaveTextContent('$500.00');
    expect(screen.getByText('Thursday, June 20th, 2030')).toBeInTheDocument();
    expect(screen.getByText('5:30 PM')).toBeInTheDocument();
    expect(screen.getByText('11:15 PM')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Will Call Order' })).not.toBeInTheDocument();
    expect(screen.getByText('You must agree before submitting.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Order' })).toBeDisabled();
  });

  it('submits the estimate with the event and will-call fields flattened in, then shows success', async () => {
    carts.set('cart-1', cart());
    const store = renderAt(
      '/checkout/summary',
      <>
        <Summary />
        <ActiveCartId />
      </>,
      {
        ...carried,
        willCall: { willCallCustomerName: 'Evergreen Weddings', willCallPickupDate: '2030-06-19' },
      },
    );
    await screen.findByTestId('summary-total');
    expect(screen.getByRole('heading', { name: 'Will Call Order' })).toBeInTheDocument();
    expect(screen.getByText('Wednesday, June 19th, 2030')).toBeInTheDocument();
    await userEvent.click(screen.getByText('I agree to the Terms & Conditions'));
    expect(screen.queryByText('You must agree before submitting.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Submit Order' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('Your order has been submitted and is pending review.'),
    ).toBeInTheDocument();
    const estimate = server.requests.find((r) => r.url === '/api/estimate');
    expect(estimate?.body).toEqual({
      CartId: 'cart-1',
      status: 'Pending',
      ...carried.event,
      willCallCustomerName: 'Evergreen Weddings',
      willCallPickupDate: '2030-06-19',
    });
    expect(estimate?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // The cart service makes a new active cart; the active cart query follows (asked again, then polled
    // while it still names the submitted cart).
    expect(store.getState().session.submitted?.cartId).toBe('cart-1');
    expect(screen.getByLabelText('active cart')).toBeEmptyDOMElement();
    const before = activeCartAsked();
    await waitFor(() => expect(activeCartAsked()).toBeGreaterThanOrEqual(before + 2), { timeout: 5000 });
    activeCart = cart({ id: 'cart-2', cartName: 'My Cart', cartTotal: 0, CartProducts: [] });
    await waitFor(() => expect(screen.getByLabelText('active cart')).toHaveTextContent('cart-2'));
    // No second call for the e-mails (checked last, after seconds of room for one): they go out
    // from the estimate's EstimateSubmitted event.
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(['/api/estimate']);
  });
});
