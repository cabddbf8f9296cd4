import {
  type AppStore,
  createAppStore,
  fetchCategories,
  http,
  PRODUCTS_PAGE_SIZE,
  signedIn,
} from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from '@decor/web-core/router';
import {
  type ApiServer,
  demoUser,
  installIntersectionObserver,
  startApiServer,
} from '@decor/web-core/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import Inventory from '../src/inventory';
import { TEXTS } from '../src/texts';

/** Answers from the local server on a busy machine. */
const LOAD = { timeout: 15_000 };

const product = (id: string, name: string, over: Record<string, unknown> = {}) => ({
  id,
  name,
  description: `${name}, for rent`,
  category: 'BARS',
  subcategory: 'Bar Front',
  Images: [],
  ...over,
});

function Where() {
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="location">{useLocation().pathname}</output>
      <button type="button" onClick={() => navigate('/gallery')}>
        leave
      </button>
    </>
  );
}

async function renderInventory(path: string, permissions?: string): Promise<AppStore> {
  const store = createAppStore();
  if (permissions) store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
  await store.dispatch(fetchCategories());
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/inventory/*" element={<Inventory />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('inventory (spec §2)', () => {
  let server: ApiServer;
  let products: unknown[] = [];
  let cartTotal = 1234.5;

  beforeAll(async () => {
    // The inventory loads antd's pickers (and customers' Add to cart) in chunks of their own when first shown: loaded here, their
    // modules' loading (seconds on a busy machine) stays out of the first test's waits.
    await Promise.all([
      import('../src/shared/availability/components/DayPicker'),
      import('../src/features/inventory/components/CustomerAddToCart').then((m) => m.preloadAddToCart()),
    ]);
    server = await startApiServer({
      'GET /categories': () => ({
        body: {
          result: {
            categories: [
              { Id: '10', Name: 'BARS' },
              { Id: '40', Name: 'LIGHTING' },
              { Id: '90', Name: 'Warehouse' },
            ],
            subcategories: [
              { Id: '11', Name: 'Bar Front', ParentRef: { value: '10' } },
              { Id: '12', Name: 'Back Bar', ParentRef: { value: '10' } },
              { Id: '41', Name: 'Candles', ParentRef: { value: '40' } },
              { Id: '91', Name: 'Services', ParentRef: { value: '90' } },
            ],
          },
        },
      }),
      'GET /product': () => ({ body: { result: products } }),
      // The customer's active cart (the badge's query).
      'GET /cart': () => ({
        body: { result: [{ id: 'cart-1', cartName: 'Spring gala', cartTotal, CartProducts: [] }] },
      }),
      'POST /cart/cart-1/cartProduct/BAR-1': () => {
        cartTotal += 500;
        return { body: { result: { id: 'cart-1', cartName: 'Spring gala', cartTotal, CartProducts: [] } } };
      },
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });

  it('opens the side navigation from the URL and highlights the active subcategory', async () => {
    products = [];
    const store = await renderInventory('/inventory/BARS/Bar%20Front');
    // jsdom is a small screen: the navigation opens with its toggle.
    const toggle = await screen.findByRole('button', { name: /Categories/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const active = await screen.findByRole('link', { name: 'Bar Front' });
    expect(active).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Back Bar' })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('link', { name: 'Candles' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Warehouse/ })).not.toBeInTheDocument();
    expect(store.getState().sideNav).toMatchObject({
      openedCategory: 'BARS',
      activeSubCategory: 'Bar Front',
    });
    await userEvent.click(screen.getByRole('button', { name: /LIGHTING/ }));
    expect(screen.getByRole('link', { name: 'Candles' })).toHaveAttribute(
      'href',
      '/inventory/LIGHTING/Candles',
    );
  });

  it('shows the not-found state for an empty list', async () => {
    products = [];
    await renderInventory('/inventory/BARS/Bar%20Front');
    expect(await screen.findByText('No products found here yet.')).toBeInTheDocument();
    expect(server.requests.at(-1)?.url).toContain('category=BARS&subcategory=Bar+Front');
  });

  it('a subcategory of more than 100 products: all of them, a page at a time as the list scrolls', async () => {
    const many = Array.from({ length: 130 }, (_, i) =>
      product(`BAR-${i + 1}`, `Bar front ${String(i + 1).padStart(3, '0')}`),
    );
    server.routes.set('GET /product', (r) => {
      const q = new URL(r.url, 'http://x').searchParams;
      const offset = Number(q.get('offset') ?? 0);
      const limit = Number(q.get('limit'));
      return {
        body: { result: many.slice(offset, offset + limit) },
        headers: { total_count: String(many.length) },
      };
    });
    server.requests.length = 0;
    const scroll = installIntersectionObserver();
    try {
      await renderInventory('/inventory/BARS/Bar%20Front');
      const names = () =>
        screen
          .getAllByRole('heading', { level: 2 })
          .map((h) => h.textContent)
          .filter((name) => name?.startsWith('Bar front'));
      expect(await screen.findByRole('heading', { name: 'Bar front 001' }, LOAD)).toBeInTheDocument();
      expect(names()).toHaveLength(PRODUCTS_PAGE_SIZE);
      await waitFor(() => expect(scroll.watched()).toBe(1));
      act(() => scroll.reachBottom());
      expect(await screen.findByRole('heading', { name: 'Bar front 096' }, LOAD)).toBeInTheDocument();
      await waitFor(() => expect(scroll.watched()).toBe(1));
      act(() => scroll.reachBottom());
      expect(await screen.findByRole('heading', { name: 'Bar front 130' }, LOAD)).toBeInTheDocument();
      expect(names()).toEqual(many.map((p) => p.name));
      const pages = server.requests
        .filter((r) => r.url.startsWith('/api/product?'))
        .map((r) => new URL(r.url, 'http://x').searchParams);
      expect(pages.map((q) => [q.get('offset'), q.get('limit')])).toEqual([
        ['0', String(PRODUCTS_PAGE_SIZE)],
        [String(PRODUCTS_PAGE_SIZE), String(PRODUCTS_PAGE_SIZE)],
        [String(2 * PRODUCTS_PAGE_SIZE), String(PRODUCTS_PAGE_SIZE)],
      ]);
      expect(pages.every((q) => q.get('category') === 'BARS' && q.get('subcategory') === 'Bar Front')).toBe(
        true,
      );
      // Everything loaded: the bottom is no longer watched and nothing more is asked for.
      await waitFor(() => expect(scroll.watched()).toBe(0));
      act(() => scroll.reachBottom());
      expect(server.requests.filter((r) => r.url.startsWith('/api/product?'))).toHaveLength(3);
    } finally {
      scroll.uninstall();
      server.routes.set('GET /product', () => ({ body: { result: products } }));
    }
  });

  it('visitors: names, images and More Info, no prices and no add-to-cart', async () => {
    products = [product('BAR-1', 'Mirrored Bar Front')];
    await renderInventory('/inventory/BARS/Bar%20Front');
    expect(await screen.findByRole('heading', { name: 'Mirrored Bar Front' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Mirrored Bar Front (no photo yet)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'More Info' })).toBeInTheDocument();
    expect(screen.queryByText(/Call or Email us/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /to the cart/ })).not.toBeInTheDocument();
  });

  it('customers: the price rule, add-to-cart, and the floating cart total', async () => {
    products = [
      product('BAR-1', 'Mirrored Bar Front', { price: 250, quantity: 4 }),
      product('BAR-2', 'Gold Bar Front', { price: 0, quantity: 4 }),
    ];
    await renderInventory('/inventory/BARS/Bar%20Front', 'customer');
    expect(await screen.findByText('$250.00')).toBeInTheDocument();
    expect(screen.getByText('Call or Email us for Details!')).toBeInTheDocument();
    expect(screen.getByText('SKU: BAR-2')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /to the cart/ })).toHaveLength(2);
    await waitFor(() => expect(screen.getByTestId('cart-badge')).toHaveTextContent('$1,234.50'), {
      timeout: 5000,
    });
    // Adding to the active cart refreshes the badge (the active cart query's tags).
    const qty = screen.getAllByLabelText('Qty')[0];
    if (!qty) throw new Error('no quantity field');
    await userEvent.clear(qty);
    await userEvent.type(qty, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Add Mirrored Bar Front to the cart' }));
    await waitFor(() => expect(screen.getByTestId('cart-badge')).toHaveTextContent('$1,734.50'), {
      timeout: 5000,
    });
    const added = server.requests.find((r) => r.url === '/api/cart/cart-1/cartProduct/BAR-1');
    expect(added?.body).toMatchObject({ qty: 2 });
    await userEvent.click(screen.getByTestId('cart-badge'));
    expect(screen.getByLabelText('location')).toHaveTextContent('/checkout/cart');
  });

  it('customers: add-to-cart waits for the active cart instead of failing right after sign-in', async () => {
    products = [product('BAR-1', 'Mirrored Bar Front', { price: 250, quantity: 4 })];
    let answerCart = () => {};
    const cartAnswered = new Promise<void>((resolve) => {
      answerCart = resolve;
    });
    const cartRoute = server.routes.get('GET /cart');
    server.routes.set('GET /cart', async (request) => {
      await cartAnswered;
      return (cartRoute as NonNullable<typeof cartRoute>)(request);
    });
    try {
      const adds = () => server.requests.filter((r) => r.url === '/api/cart/cart-1/cartProduct/BAR-1').length;
      const addsBefore = adds();
      await renderInventory('/inventory/BARS/Bar%20Front', 'customer');
      const add = await screen.findByRole('button', { name: 'Add Mirrored Bar Front to the cart' });
      await userEvent.click(add);
      expect(screen.queryByText(TEXTS.addFailure)).not.toBeInTheDocument();
      expect(adds()).toBe(addsBefore);
      answerCart();
      await waitFor(() => expect(screen.getByTestId('cart-badge')).toHaveTextContent('$'));
      await userEvent.click(add);
      expect(await screen.findByText(TEXTS.addSuccess)).toBeInTheDocument();
    } finally {
      answerCart();
      if (cartRoute) server.routes.set('GET /cart', cartRoute);
    }
  });

  it('staff get Add Product and no cart badge', async () => {
    products = [product('BAR-1', 'Mirrored Bar Front', { price: 250, quantity: 4 })];
    await renderInventory('/inventory/BARS/Bar%20Front', 'admin');
    expect(await screen.findByRole('button', { name: /Add Product/ })).toBeInTheDocument();
    expect(screen.queryByTestId('cart-badge')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Categories/ }));
    expect(screen.getByRole('button', { name: /Warehouse/ })).toBeInTheDocument();
  });
});
