/**
 * Availability by date (issue 15) on the storefront: the 'Check availability' days on the inventory
 * screens (hints for visitors, numbers for customers, the product page's quantity capped) and the
 * checkout summary's line availability, Submit Order held while the cart does not fit.
 */
import { createAppStore, fetchCategories, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { Summary } from '../src/features/checkout/components/Summary';
import Inventory from '../src/inventory';
import { setCheckedDates } from '../src/shared/availability/checked-dates';
import type { CheckoutState } from '../src/shared/cart/checkout-state';

const LOAD = { timeout: 15_000 };
const CUSTOMER = 'customer';

const product = (id: string, name: string, quantity = 20) => ({
  id,
  name,
  description: `${name}, for rent`,
  category: 'BARS',
  subcategory: 'Bar Front',
  Images: [],
  price: 100,
  quantity,
});

async function renderAt(path: string, element: React.ReactNode, permissions?: string, state?: CheckoutState) {
  const store = createAppStore();
  if (permissions) store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
  await store.dispatch(fetchCategories());
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        <Routes>
          <Route path="/inventory/*" element={element} />
          <Route path="/checkout/summary" element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('availability by date on the storefront', () => {
  let server: ApiServer;
  let availability: () => { status?: number; body: unknown } = () => ({ body: { result: [] } });
  let estimateReply: () => { status: number; body: unknown } = () => ({
    status: 201,
    body: { result: { id: 'e1', DocNumber: '1001' } },
  });
  const cartLine = (qty: number) => ({
    id: 'CHAIR-1',
    CartId: 'cart-1',
    CartProductId: 'line-1',
    name: 'Chiavari Chairs',
    description: '',
    qty,
    price: 10,
    total: qty * 10,
    quantity: 100,
    qboId: null,
  });
  let lineQty = 20;

  beforeAll(async () => {
    // The inventory loads antd's pickers in chunks of their own when first shown: loaded here, their
    // modules' loading (seconds on a busy machine) stays out of the first test's waits.
    await Promise.all([import('../src/shared/availability/components/DayPicker')]);
    server = await startApiServer({
      'GET /categories': () => ({
        body: {
          result: {
            categories: [{ Id: '10', Name: 'BARS' }],
            subcategories: [{ Id: '11', Name: 'Bar Front', ParentRef: { value: '10' } }],
          },
        },
      }),
      'GET /product': () => ({
        body: { result: [product('BAR-1', 'Mirrored Bar'), product('BAR-2', 'Oak Bar')] },
      }),
      'GET /product/BAR-1': () => ({ body: { result: [product('BAR-1', 'Mirrored Bar')] } }),
      'GET /availability': () => availability(),
      'GET /cart': () => ({
        body: { result: [{ id: 'cart-1', cartName: 'Gala', cartTotal: 0, CartProducts: [] }] },
      }),
      'GET /cart/cart-1/products': () => ({
        body: {
          result: [
            { id: 'cart-1', cartName: 'Gala', cartTotal: lineQty * 10, CartProducts: [cartLine(lineQty)] },
          ],
        },
      }),
      'POST /estimate': () => estimateReply(),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    setCheckedDates(null);
  });
  const availabilityAsked = () => server.requests.filter((r) => r.url.startsWith('/api/availability?'));

  it('without checked days nothing is asked and nothing is said', async () => {
    await renderAt('/inventory/BARS/Bar%20Front', <Inventory />);
    expect(await screen.findByText('Oak Bar', {}, LOAD)).toBeInTheDocument();
    expect(screen.queryByTestId('availability')).not.toBeInTheDocument();
    expect(availabilityAsked()).toHaveLength(0);
  });

  it('a visitor picks a day: every card shows its hint, and the day is remembered for the visit', async () => {
    availability = () => ({
      body: {
        result: [
          { id: 'BAR-1', hint: 'Only a few left' },
          { id: 'BAR-2', hint: 'Not available' },
        ],
      },
    });
    await renderAt('/inventory/BARS/Bar%20Front', <Inventory />);
    await screen.findByText('Oak Bar', {}, LOAD);
    const picker = screen.getByLabelText('Check availability');
    await userEvent.click(picker);
    await userEvent.keyboard('2031-01-09{Enter}');
    expect(await screen.findByText('Only a few left', {}, LOAD)).toBeInTheDocument();
    expect(screen.getByText('Not available')).toBeInTheDocument();
    const asked = availabilityAsked();
    expect(asked.at(-1)?.url).toBe('/api/availability?from=2031-01-09&id=BAR-1&id=BAR-2');
    expect(JSON.parse(sessionStorage.getItem('availability-dates') ?? 'null')).toEqual({
      from: '2031-01-09',
      to: '2031-01-09',
    });
  });

  it('a customer sees the number for the checked days', async () => {
    setCheckedDates({ from: '2031-01-09', to: '2031-01-10' });
    availability = () => ({
      body: { result: [{ id: 'BAR-1', hint: 'Available', available: 12, day: '2031-01-09' }] },
    });
    await renderAt('/inventory/BARS/Bar%20Front', <Inventory />, CUSTOMER);
    expect(
      await screen.findByText('12 available on Thursday, January 9th, 2031', {}, LOAD),
    ).toBeInTheDocument();
    expect(availabilityAsked().at(-1)?.url).toBe(
      '/api/availability?from=2031-01-09&to=2031-01-10&id=BAR-1&id=BAR-2',
    );
  });

  it('a failed check says it could not be checked', async () => {
    setCheckedDates({ from: '2031-01-09', to: '2031-01-09' });
    availability = () => ({ status: 503, body: { message: 'down' } });
    await renderAt('/inventory/BARS/Bar%20Front', <Inventory />);
    expect((await screen.findAllByText('Availability could not be checked right now', {}, LOAD)).length).toBe(
      2,
    );
  });

  it("the product page caps the customer's quantity by the units free", async () => {
    setCheckedDates({ from: '2031-01-09', to: '2031-01-09' });
    availability = () => ({
      body: { result: [{ id: 'BAR-1', hint: 'Only a few left', available: 2, day: '2031-01-09' }] },
    });
    await renderAt('/inventory/BARS/Bar%20Front/BAR-1', <Inventory />, CUSTOMER);
    expect(
      await screen.findByText('2 available on Thursday, January 9th, 2031', {}, LOAD),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('spinbutton', { name: 'Qty' })).toHaveAttribute('aria-valuemax', '2'),
    );
  });

  const carried: CheckoutState = {
    cartId: 'cart-1',
    event: { customerName: 'Evergreen', groupName: 'Gala', eventDate: '2031-01-09', location: 'Hall' },
    willCall: {
      willCallCustomerName: 'Evergreen',
      willCallReturnDate: '2031-01-11',
      willCallPickupDate: '2031-01-08',
    },
  };

  it('the summary checks the order days; a short line says so and holds Submit Order', async () => {
    lineQty = 20;
    availability = () => ({
      body: { result: [{ id: 'CHAIR-1', hint: 'Available', available: 12, day: '2031-01-09' }] },
    });
    await renderAt('/checkout/summary', <Summary />, CUSTOMER, carried);
    expect(
      await screen.findByText(
        'Only 12 Chiavari Chairs are available on Thursday, January 9th, 2031',
        {},
        LOAD,
      ),
    ).toBeInTheDocument();
    expect(availabilityAsked().at(-1)?.url).toBe(
      '/api/availability?from=2031-01-08&to=2031-01-11&id=CHAIR-1',
    );
    await userEvent.click(screen.getByText('I agree to the Terms & Conditions'));
    expect(screen.getByRole('button', { name: 'Submit Order' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit cart' })).toBeInTheDocument();
  });

  it('a line that fits is said so; the server refusing at submission shows its message and marks the line', async () => {
    lineQty = 10;
    availability = () => ({
      body: { result: [{ id: 'CHAIR-1', hint: 'Available', available: 12, day: '2031-01-09' }] },
    });
    estimateReply = () => ({
      status: 409,
      body: {
        message: 'Only 8 Chiavari Chairs are available on Thursday, January 9th, 2031',
        shortLines: [
          { productId: 'CHAIR-1', name: 'Chiavari Chairs', requested: 10, available: 8, day: '2031-01-09' },
        ],
      },
    });
    await renderAt('/checkout/summary', <Summary />, CUSTOMER, carried);
    expect(
      await screen.findByText('12 available on Thursday, January 9th, 2031', {}, LOAD),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByText('I agree to the Terms & Conditions'));
    const submit = screen.getByRole('button', { name: 'Submit Order' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('Only 8 Chiavari Chairs are available on Thursday, January 9th, 2031'),
    ).toBeInTheDocument();
    const close = within(dialog)
      .getAllByRole('button', { name: 'Close' })
      .find((b) => b.textContent === 'Close');
    if (close) await userEvent.click(close);
    const marked = await screen.findByTestId('line-availability');
    expect(marked).toHaveTextContent('Only 8 Chiavari Chairs are available on Thursday, January 9th, 2031');
    expect(screen.getByRole('button', { name: 'Submit Order' })).toBeDisabled();
  });
});
