import { api } from '../src/api';
import { http, SESSION_EXPIRED_MESSAGE } from '../src/http';
import {
  initialSessionState,
  mergeUser,
  SESSION_ERROR,
  sessionExpired,
  sessionReducer,
  signedIn,
  signOut,
  validateSession,
} from '../src/session-slice';
import { createAppStore } from '../src/store';
import { type ApiServer, demoUser, startApiServer } from './support/api-server';

/** The user as the session keeps it: /auth/jwt's cart stays out (the active cart is a query). */
const { cart: _jwtCart, ...sessionUser } = demoUser;

describe('session slice (spec §3-4)', () => {
  it('starts without a user, with the token of session storage', () => {
    sessionStorage.setItem('token', 't-1');
    expect(initialSessionState()).toEqual({
      user: null,
      token: 't-1',
      loading: false,
      error: false,
      errorDetail: null,
      submitted: null,
    });
  });

  it('validation: pending sets loading; fulfilled stores the user, clears errors, reads the token', () => {
    const failed = { ...initialSessionState(), error: true, errorDetail: 'old' };
    const loading = sessionReducer(failed, validateSession.pending('r1'));
    expect(loading.loading).toBe(true);
    sessionStorage.setItem('token', 'fresh-token');
    const done = sessionReducer(loading, validateSession.fulfilled(demoUser, 'r1'));
    expect(done).toEqual({
      user: sessionUser,
      token: 'fresh-token',
      loading: false,
      error: false,
      errorDetail: null,
      submitted: null,
    });
  });

  it("validation rejected: clears session storage and says 'there was an error while logging in'", () => {
    sessionStorage.setItem('token', 'bad');
    sessionStorage.setItem('realm_id', 'r');
    const state = sessionReducer(
      { ...initialSessionState(), token: 'bad', loading: true },
      validateSession.rejected(null, 'r1', undefined, { status: 401, message: 'x' }),
    );
    expect(sessionStorage.length).toBe(0);
    expect(state).toMatchObject({
      user: null,
      token: 'bad',
      loading: false,
      error: true,
      errorDetail: SESSION_ERROR,
    });
    expect(SESSION_ERROR).toBe('there was an error while logging in');
  });

  it('merges user fields; keeps no cart of its own (neither from /auth/jwt nor from a sign-in)', () => {
    let state = sessionReducer(initialSessionState(), validateSession.fulfilled(demoUser, 'r'));
    expect(demoUser.cart).toBeTruthy();
    expect(state.user).not.toHaveProperty('cart');
    state = sessionReducer(state, mergeUser({ firstName: 'Cas', displayName: 'Cas Customer' }));
    expect(state.user).toMatchObject({
      firstName: 'Cas',
      displayName: 'Cas Customer',
      email: demoUser.email,
    });
    state = sessionReducer(state, signedIn({ user: demoUser, token: 't' }));
    expect(state.user).toEqual(sessionUser);
  });

  it('an answered order records its cart and when; sign-out, expiry and another sign-in forget it', () => {
    const estimate = { body: { CartId: 'cart-1', status: 'Pending' }, key: 'k' } as never;
    const answered = (state: ReturnType<typeof initialSessionState>) =>
      sessionReducer(state, {
        type: 'api/executeMutation/fulfilled',
        payload: { id: 'e1', DocNumber: '1001' },
        meta: {
          arg: { type: 'mutation', endpointName: 'createEstimate', originalArgs: estimate },
          fulfilledTimeStamp: 1_700_000_000_000,
          requestId: 'r',
          requestStatus: 'fulfilled',
          baseQueryMeta: undefined,
        },
      });
    const signed = sessionReducer(initialSessionState(), signedIn({ user: demoUser, token: 't' }));
    const state = answered(signed);
    expect(state.submitted).toEqual({ cartId: 'cart-1', at: 1_700_000_000_000 });
    expect(sessionReducer(state, signOut()).submitted).toBeNull();
    expect(sessionReducer(state, sessionExpired()).submitted).toBeNull();
    expect(sessionReducer(state, signedIn({ user: demoUser, token: 't' })).submitted).toBeNull();
    // Another mutation's answer changes nothing.
    const other = sessionReducer(signed, {
      type: 'api/executeMutation/fulfilled',
      payload: {},
      meta: {
        arg: { type: 'mutation', endpointName: 'updateCart', originalArgs: { id: 'cart-1' } },
        fulfilledTimeStamp: 1,
        requestId: 'r2',
        requestStatus: 'fulfilled',
      },
    });
    expect(other.submitted).toBeNull();
  });

  it('sign out forgets the user, the token and session storage', () => {
    sessionStorage.setItem('token', 't');
    let state = sessionReducer(initialSessionState(), validateSession.fulfilled(demoUser, 'r'));
    state = sessionReducer(state, signOut());
    expect(state).toMatchObject({ user: null, token: null, error: false });
    expect(sessionStorage.getItem('token')).toBeNull();
  });
});

describe('session thunks against a server', () => {
  let server: ApiServer;
  const jwtAnswers: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
  /** /auth/jwt answers once this settles (a slow server, for the races). */
  let held: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    server = await startApiServer({
      'GET /auth/jwt': async () => {
        await held;
        return jwtAnswers.shift() ?? { status: 500, body: {} };
      },
      'GET /cart/cart-9/products': () => ({
        status: 401,
        body: { message: 'jwt expired' },
        headers: { expiredtoken: 'true' },
      }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });

  it('loads the user of a stored token (GET /auth/jwt with the Bearer token)', async () => {
    sessionStorage.setItem('token', 'stored.jwt.token');
    jwtAnswers.push({ status: 200, body: { result: demoUser } });
    const store = createAppStore();
    await store.dispatch(validateSession());
    expect(store.getState().session).toMatchObject({
      user: sessionUser,
      token: 'stored.jwt.token',
      loading: false,
    });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer stored.jwt.token');
  });

  it('a refused token clears the session with the spec message', async () => {
    sessionStorage.setItem('token', 'stale');
    jwtAnswers.push({ status: 401, body: { message: 'Invalid token' } });
    const store = createAppStore();
    await store.dispatch(validateSession());
    expect(store.getState().session).toMatchObject({ user: null, error: true, errorDetail: SESSION_ERROR });
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('an expiredtoken answer anywhere signs out and explains', async () => {
    sessionStorage.setItem('token', 'stored');
    jwtAnswers.push({ status: 200, body: { result: demoUser } });
    const store = createAppStore();
    await store.dispatch(validateSession());
    await store.dispatch(api.endpoints.getCart.initiate({ id: 'cart-9' }));
    expect(store.getState().session).toMatchObject({
      user: null,
      token: null,
      error: true,
      errorDetail: SESSION_EXPIRED_MESSAGE,
    });
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it.each([
    ['a user', { status: 200, body: { result: demoUser } }],
    ['a refusal', { status: 401, body: { message: 'Invalid token' } }],
  ])(
    'a validation answered with %s after sign-out changes nothing: the visitor stays signed out',
    async (_what, answer) => {
      sessionStorage.setItem('token', 'stored');
      jwtAnswers.push(answer);
      let release = () => {};
      held = new Promise((resolve) => {
        release = resolve;
      });
      const store = createAppStore();
      const validating = store.dispatch(validateSession());
      await until(() =>
        server.requests.some(
          (r) => r.url.endsWith('/auth/jwt') && r.headers.authorization === 'Bearer stored',
        ),
      );
      store.dispatch(signOut());
      release();
      await validating;
      held = Promise.resolve();
      expect(store.getState().session).toMatchObject({
        user: null,
        token: null,
        loading: false,
        error: false,
      });
    },
  );

  it('a validation answered after someone else signed in keeps the new user', async () => {
    sessionStorage.setItem('token', 'first');
    jwtAnswers.push({ status: 200, body: { result: demoUser } });
    let release = () => {};
    held = new Promise((resolve) => {
      release = resolve;
    });
    const store = createAppStore();
    const validating = store.dispatch(validateSession());
    await until(() => server.requests.some((r) => r.headers.authorization === 'Bearer first'));
    const other = { ...demoUser, id: 'someone-else', email: 'else@example.com' };
    sessionStorage.setItem('token', 'second');
    store.dispatch(signedIn({ user: other, token: 'second' }));
    release();
    await validating;
    held = Promise.resolve();
    expect(store.getState().session.user).toMatchObject({ id: 'someone-else', email: 'else@example.com' });
    expect(store.getState().session.loading).toBe(false);
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('the request never reached the server');
}
