/**
 * The session's active cart as one RTK Query entry (useActiveCart), against a real HTTP server: asked
 * once, refreshed by the cart changes' tags (a line saved, Set Active, an order), never polled except
 * while the cached answer is still the cart just submitted; nothing for visitors and staff; one entry
 * per customer.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { api } from '../src/api';
import { http } from '../src/http';
import { ACTIVE_CART_POLL_MS, signedIn, signOut, useActiveCart } from '../src/session-slice';
import { createAppStore } from '../src/store';
import type { User } from '../src/types';
import { type ApiServer, demoUser, type Recorded, startApiServer } from './support/api-server';

const cart = (id: string, cartTotal: number, cartName = 'Spring gala') => ({
  id,
  UserId: demoUser.id,
  cartName,
  isActive: true,
  didCheckOut: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  cartTotal,
  CartProducts: [],
});

const otherCustomer = { ...demoUser, id: '64b7f0c2a1b2c3d4e5f60720', email: 'robin@decor.example' };
const staff = { ...demoUser, id: '64b7f0c2a1b2c3d4e5f60799', permissions: 'admin', cart: null };

describe('useActiveCart', () => {
  let server: ApiServer;
  /** What GET /cart?isActive=true answers, by bearer token. */
  const active = new Map<string, unknown>();
  let estimateBody: Recorded['body'] = null;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /cart': (req) => ({
        body: { result: [active.get(req.headers.authorization ?? '')].filter(Boolean) },
      }),
      'POST /cart/cart-1/cartProduct/BAR-1': () => {
        active.set('Bearer jwt-1', cart('cart-1', 620));
        return { body: { result: cart('cart-1', 620) } };
      },
      'PUT /cart/cart-7': () => {
        active.set('Bearer jwt-1', cart('cart-7', 0, 'Autumn fair'));
        return { body: { result: cart('cart-7', 0, 'Autumn fair') } };
      },
      'POST /estimate': (req) => {
        estimateBody = req.body;
        return { status: 201, body: { result: { id: 'e1', DocNumber: '1001' } } };
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
    active.clear();
    active.set('Bearer jwt-1', cart('cart-1', 120.5));
    active.set('Bearer jwt-2', cart('cart-2', 75, 'Robin’s cart'));
  });

  const cartCalls = () => server.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/cart?'));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function signIn(store: ReturnType<typeof createAppStore>, user: User, token: string) {
    sessionStorage.setItem('token', token);
    store.dispatch(signedIn({ user, token }));
  }

  function mount(store: ReturnType<typeof createAppStore>) {
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    return renderHook(() => useActiveCart(), { wrapper });
  }

  it("asks the cart service once for the customer's active cart, and does not poll", async () => {
    const store = createAppStore();
    signIn(store, demoUser, 'jwt-1');
    const { result, unmount } = mount(store);
    expect(result.current.pending).toBe(true);
    await waitFor(() => expect(result.current.cart?.cartTotal).toBe(120.5));
    expect(result.current).toMatchObject({ pending: false, error: false });
    expect(cartCalls().map((r) => r.url)).toEqual(['/api/cart?isActive=true&limit=1']);
    expect(cartCalls()[0]?.headers.authorization).toBe('Bearer jwt-1');
    await pause(ACTIVE_CART_POLL_MS * 3);
    expect(cartCalls()).toHaveLength(1);
    unmount();
  });

  it('follows a saved line and Set Active through the tags', async () => {
    const store = createAppStore();
    signIn(store, demoUser, 'jwt-1');
    const { result, unmount } = mount(store);
    await waitFor(() => expect(result.current.cart?.id).toBe('cart-1'));
    await act(() =>
      store.dispatch(api.endpoints.saveCartLine.initiate({ cartId: 'cart-1', productId: 'BAR-1', qty: 2 })),
    );
    await waitFor(() => expect(result.current.cart?.cartTotal).toBe(620));
    expect(cartCalls()).toHaveLength(2);
    await act(() => store.dispatch(api.endpoints.updateCart.initiate({ id: 'cart-7', isActive: true })));
    await waitFor(() => expect(result.current.cart).toMatchObject({ id: 'cart-7', cartName: 'Autumn fair' }));
    expect(cartCalls()).toHaveLength(3);
    unmount();
  });

  it('after an order, waits (polling) until the cart service names the next cart, then stops', async () => {
    const store = createAppStore();
    signIn(store, demoUser, 'jwt-1');
    const { result, unmount } = mount(store);
    await waitFor(() => expect(result.current.cart?.id).toBe('cart-1'));
    // The order is answered; the cart service has not checked the cart out yet.
    await act(async () => {
      await store.dispatch(
        api.endpoints.createEstimate.initiate({
          body: { CartId: 'cart-1', status: 'Pending' } as never,
          key: 'k-1',
        }),
      );
    });
    expect(estimateBody).toMatchObject({ CartId: 'cart-1' });
    expect(store.getState().session.submitted?.cartId).toBe('cart-1');
    // The submitted cart is not shown as the active one while the query asks again.
    await waitFor(() => expect(cartCalls().length).toBeGreaterThanOrEqual(3));
    expect(result.current).toMatchObject({ cart: undefined, pending: true });
    // The cart service opens the next cart.
    active.set('Bearer jwt-1', cart('cart-3', 0, 'My Cart'));
    await waitFor(() => expect(result.current.cart).toMatchObject({ id: 'cart-3', cartName: 'My Cart' }));
    expect(result.current.pending).toBe(false);
    const asked = cartCalls().length;
    await pause(ACTIVE_CART_POLL_MS * 3);
    expect(cartCalls()).toHaveLength(asked);
    unmount();
  });

  it('nothing for visitors and staff: no call, no cart', async () => {
    const store = createAppStore();
    const { result, unmount } = mount(store);
    signIn(store, staff, 'jwt-staff');
    await pause(100);
    expect(result.current).toEqual({ cart: undefined, pending: false, error: false });
    expect(cartCalls()).toHaveLength(0);
    unmount();
  });

  it("one entry per customer: after sign-out the next customer never sees the previous one's cart", async () => {
    const store = createAppStore();
    signIn(store, demoUser, 'jwt-1');
    const { result, unmount } = mount(store);
    await waitFor(() => expect(result.current.cart?.id).toBe('cart-1'));
    act(() => {
      store.dispatch(signOut());
    });
    expect(result.current.cart).toBeUndefined();
    const seen: (string | undefined)[] = [];
    act(() => signIn(store, otherCustomer, 'jwt-2'));
    seen.push(result.current.cart?.id);
    await waitFor(() => expect(result.current.cart?.id).toBe('cart-2'));
    expect(seen).toEqual([undefined]);
    expect(cartCalls().at(-1)?.headers.authorization).toBe('Bearer jwt-2');
    unmount();
  });
});
