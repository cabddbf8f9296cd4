import { api } from '../src/api';
import { http } from '../src/http';
import { signedIn, signOut } from '../src/session-slice';
import { createAppStore } from '../src/store';
import { type ApiServer, demoUser, startApiServer } from './support/api-server';

describe('cached server data follows the viewer', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({
      // Like the catalogue: prices and stock only for a signed-in viewer.
      'GET /product': (req) => ({
        body: {
          result: [
            {
              id: 'BAR-1',
              name: 'Mirrored Bar Front',
              ...(req.headers.authorization ? { price: 250, quantity: 4 } : {}),
            },
          ],
        },
      }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });

  const priceOnScreen = (store: ReturnType<typeof createAppStore>) =>
    api.endpoints.getProducts.select({ category: 'BARS', subcategory: ['Bar Front'] })(store.getState())
      .data?.[0]?.price;

  it('a product list loaded as a visitor is fetched again after sign-in, and after sign-out', async () => {
    const store = createAppStore();
    const subscription = store.dispatch(
      api.endpoints.getProducts.initiate({ category: 'BARS', subcategory: ['Bar Front'] }),
    );
    await subscription;
    expect(priceOnScreen(store)).toBeUndefined();

    sessionStorage.setItem('token', 'jwt');
    store.dispatch(signedIn({ user: demoUser, token: 'jwt' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));
    expect(priceOnScreen(store)).toBe(250);

    store.dispatch(signOut());
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));
    expect(priceOnScreen(store)).toBeUndefined();
    subscription.unsubscribe();
  });
});
