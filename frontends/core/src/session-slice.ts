/**
 * Session state (spec §3-4): user (holding the active cart), token, loading, error, errorDetail.
 * A plain redux toolkit slice with thunks over the one axios client.
 */
import { createAsyncThunk, createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { api } from './api';
import { type ApiError, http, SESSION_EXPIRED_MESSAGE, storedToken, TOKEN_KEY, toApiError } from './http';
import type { Cart, SessionCart, User } from './types';

export const SESSION_ERROR = 'there was an error while logging in';

export interface SessionState {
  user: User | null;
  token: string | null;
  loading: boolean;
  error: boolean;
  errorDetail: string | null;
}

export const initialSessionState = (): SessionState => ({
  user: null,
  token: typeof sessionStorage === 'undefined' ? null : storedToken(),
  loading: false,
  error: false,
  errorDetail: null,
});

/** GET /auth/jwt: validates the stored token and loads the user. */
export const validateSession = createAsyncThunk<User, void, { rejectValue: ApiError }>(
  'session/validate',
  async (_arg, { rejectWithValue }) => {
    try {
      const response = await http.get<{ result: User }>('/auth/jwt');
      return response.data.result;
    } catch (error) {
      return rejectWithValue(toApiError(error));
    }
  },
);

export interface SignInAnswer {
  token: string;
  permissions: string;
  redirecturl?: string;
  user: User;
}

/** POST /auth/user. The token comes back in the `token` header, which the client saves. */
export async function signIn(email: string, password: string): Promise<SignInAnswer> {
  try {
    const response = await http.post<{ result: SignInAnswer }>('/auth/user', { email, password });
    if (!storedToken() && response.data.result.token) {
      sessionStorage.setItem(TOKEN_KEY, response.data.result.token);
    }
    return response.data.result;
  } catch (error) {
    throw toApiError(error);
  }
}

/** The active cart's total (GET /cart/{id}/products, cartTotal in the first row). */
export const fetchCartTotal = createAsyncThunk<SessionCart, string, { rejectValue: ApiError }>(
  'session/fetchCartTotal',
  async (cartId, { rejectWithValue }) => {
    try {
      const response = await http.get<{ result: Cart[] }>(`/cart/${encodeURIComponent(cartId)}/products`);
      const cart = response.data.result[0];
      if (!cart) return rejectWithValue({ status: 404, message: 'Cart not found' });
      return { id: cart.id, cartName: cart.cartName, cartTotal: cart.cartTotal };
    } catch (error) {
      return rejectWithValue(toApiError(error));
    }
  },
);

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    /** Merge fields into the user (e.g. after a profile change). */
    mergeUser(state, action: PayloadAction<Partial<User>>) {
      if (state.user) state.user = { ...state.user, ...action.payload };
    },
    /** The current (active) cart changed: a new cart after checkout, or Set Active. */
    setCart(state, action: PayloadAction<SessionCart | null>) {
      if (state.user) state.user.cart = action.payload;
    },
    /** A signed-in session: the token is in session storage, the user comes with it. */
    signedIn(state, action: PayloadAction<{ user: User; token: string }>) {
      state.user = action.payload.user;
      state.token = action.payload.token;
      state.error = false;
      state.errorDetail = null;
    },
    signOut(state) {
      sessionStorage.clear();
      state.user = null;
      state.token = null;
      state.loading = false;
      state.error = false;
      state.errorDetail = null;
    },
    /** The server answered `expiredtoken: true`: the session is over; say why. */
    sessionExpired(state) {
      sessionStorage.clear();
      state.user = null;
      state.token = null;
      state.loading = false;
      state.error = true;
      state.errorDetail = SESSION_EXPIRED_MESSAGE;
    },
    clearSessionError(state) {
      state.error = false;
      state.errorDetail = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(validateSession.pending, (state) => {
        state.loading = true;
      })
      .addCase(validateSession.fulfilled, (state, action) => {
        state.user = action.payload;
        state.error = false;
        state.errorDetail = null;
        state.loading = false;
        state.token = storedToken();
      })
      .addCase(validateSession.rejected, (state) => {
        // Spec §4: session storage is cleared; the token in the state stays until the next start,
        // so protected routes show the connection message instead of silently going home.
        sessionStorage.clear();
        state.user = null;
        state.loading = false;
        state.error = true;
        state.errorDetail = SESSION_ERROR;
      })
      .addCase(fetchCartTotal.fulfilled, (state, action) => {
        const cart = state.user?.cart;
        if (state.user && (!cart || cart.id === action.payload.id)) state.user.cart = action.payload;
      })
      // Any answer carrying the current cart keeps the floating total and the cart name current.
      .addMatcher(
        isAnyOf(
          api.endpoints.getCart.matchFulfilled,
          api.endpoints.saveCartLine.matchFulfilled,
          api.endpoints.removeCartLine.matchFulfilled,
          api.endpoints.updateCart.matchFulfilled,
        ),
        (state, action) => {
          const cart = action.payload;
          const current = state.user?.cart;
          if (cart && current && cart.id === current.id) {
            current.cartTotal = cart.cartTotal;
            current.cartName = cart.cartName;
          }
        },
      );
  },
});

export const { mergeUser, setCart, signedIn, signOut, sessionExpired, clearSessionError } =
  sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

/**
 * After an order, the cart service checks the cart out and makes a new active cart (from the
 * EstimateSubmitted event): ask the session again until it names a different cart, then make it current.
 */
export const refreshActiveCart = createAsyncThunk<
  SessionCart | null,
  { previousCartId: string; tries?: number }
>('session/refreshActiveCart', async ({ previousCartId, tries = 20 }, { dispatch }) => {
  for (let attempt = 0; attempt < tries; attempt += 1) {
    try {
      const response = await http.get<{ result: User }>('/auth/jwt');
      const cart = response.data.result.cart ?? null;
      if (cart && cart.id !== previousCartId) {
        dispatch(setCart(cart));
        return cart;
      }
    } catch {
      // try again
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return null;
});
