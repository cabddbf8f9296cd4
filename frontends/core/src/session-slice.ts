/**
 * Session state (spec §3-4): user, token, loading, error, errorDetail. A plain redux toolkit slice with
 * thunks over the one axios client. The active cart is not kept here: it is one RTK Query entry
 * (api.getActiveCart), read through useActiveCart.
 */

import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { skipToken } from '@reduxjs/toolkit/query';
import { useSelector } from 'react-redux';
import { api } from './api';
import { type ApiError, http, SESSION_EXPIRED_MESSAGE, storedToken, TOKEN_KEY, toApiError } from './http';
import { isCustomer } from './roles';
import type { Cart, User } from './types';

export const SESSION_ERROR = 'there was an error while logging in';

/** The signed-in user as the session keeps it: without the cart /auth/jwt names (useActiveCart has it). */
export type SessionUser = Omit<User, 'cart'>;

export interface SessionState {
  user: SessionUser | null;
  token: string | null;
  loading: boolean;
  error: boolean;
  errorDetail: string | null;
  /** The cart of this session's last submitted order, and when the order was answered. */
  submitted: { cartId: string; at: number } | null;
}

export const initialSessionState = (): SessionState => ({
  user: null,
  token: typeof sessionStorage === 'undefined' ? null : storedToken(),
  loading: false,
  error: false,
  errorDetail: null,
  submitted: null,
});

function withoutCart(user: User): SessionUser {
  const { cart: _cart, ...rest } = user;
  return rest;
}

/**
 * GET /auth/jwt: validates the stored token and loads the user. Null when the session ended or changed
 * hands while the answer was on its way (a sign-out, an expiry, another sign-in): that answer is about
 * a session that is over, and applying it would sign a signed-out visitor back in.
 */
export const validateSession = createAsyncThunk<User | null, void, { rejectValue: ApiError }>(
  'session/validate',
  async (_arg, { getState, rejectWithValue }) => {
    const signedInAs = () => (getState() as { session: SessionState }).session.user?.id;
    const over = (answered?: User) =>
      storedToken() === null || (answered !== undefined && (signedInAs() ?? answered.id) !== answered.id);
    try {
      const response = await http.get<{ result: User }>('/auth/jwt');
      return over(response.data.result) ? null : response.data.result;
    } catch (error) {
      return over() ? null : rejectWithValue(toApiError(error));
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

/**
 * POST /auth/logout: the server ends every session of the user (the gateway and every service refuse
 * the token from then on). Called with the token in hand, before `signOut` clears it; a failure
 * (offline, already expired) changes nothing for the client, which signs out anyway.
 */
export async function endSessionOnServer(): Promise<void> {
  const token = storedToken();
  if (!token) return;
  await http
    .post('/auth/logout', undefined, { headers: { Authorization: `Bearer ${token}` } })
    .catch(() => undefined);
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    /** Merge fields into the user (e.g. after a profile change). */
    mergeUser(state, action: PayloadAction<Partial<SessionUser>>) {
      if (state.user) state.user = { ...state.user, ...action.payload };
    },
    /** A signed-in session: the token is in session storage, the user comes with it. */
    signedIn(state, action: PayloadAction<{ user: User; token: string }>) {
      state.user = withoutCart(action.payload.user);
      state.submitted = null;
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
      state.submitted = null;
    },
    /** The server answered `expiredtoken: true`: the session is over; say why. */
    sessionExpired(state) {
      sessionStorage.clear();
      state.user = null;
      state.token = null;
      state.loading = false;
      state.error = true;
      state.errorDetail = SESSION_EXPIRED_MESSAGE;
      state.submitted = null;
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
        if (action.payload === null) {
          state.loading = false;
          return;
        }
        state.user = withoutCart(action.payload);
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
      // The cart service checks this cart out and opens the next one from the order's event, a moment
      // after the order is answered: useActiveCart waits for it.
      .addMatcher(api.endpoints.createEstimate.matchFulfilled, (state, action) => {
        state.submitted = {
          cartId: action.meta.arg.originalArgs.body.CartId,
          at: action.meta.fulfilledTimeStamp,
        };
      });
  },
});

export const { mergeUser, signedIn, signOut, sessionExpired, clearSessionError } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

/** While the cached active cart is still the one just submitted, it is asked for this often... */
export const ACTIVE_CART_POLL_MS = 500;
/** ...for at most this long after the order was answered (then the server's answer stands). */
export const ACTIVE_CART_WAIT_MS = 30_000;

export interface ActiveCart {
  /** The active cart; undefined while it loads, when it never loaded, or while it is still the cart just submitted. */
  cart: Cart | undefined;
  /** Loading, or waiting for the cart service to open the next cart after an order. */
  pending: boolean;
  error: boolean;
}

/**
 * The signed-in customer's active cart (nothing for visitors and staff): one RTK Query entry that every
 * cart change refreshes through its tags (api.getActiveCart). One wait remains, for a reason: an order
 * is answered once its EstimateSubmitted event is on Kafka, and the cart service checks the cart out
 * and opens the next active cart from that event a moment later. So while the cached answer still
 * names the submitted cart, the query polls every ACTIVE_CART_POLL_MS (at most ACTIVE_CART_WAIT_MS)
 * and the submitted cart is not shown as the active one; otherwise it never polls.
 */
export function useActiveCart(): ActiveCart {
  const userId = useSelector((s: { session: SessionState }) =>
    isCustomer(s.session.user?.permissions) ? s.session.user?.id : undefined,
  );
  const submitted = useSelector((s: { session: SessionState }) => s.session.submitted);
  const arg = userId ?? skipToken;
  // currentData: the answer for this viewer only (data would carry the previous viewer's cart over).
  const { currentData, isError, fulfilledTimeStamp } = api.endpoints.getActiveCart.useQueryState(arg);
  const waiting =
    !!submitted &&
    currentData?.id === submitted.cartId &&
    (fulfilledTimeStamp ?? 0) - submitted.at < ACTIVE_CART_WAIT_MS;
  api.endpoints.getActiveCart.useQuerySubscription(arg, {
    pollingInterval: waiting ? ACTIVE_CART_POLL_MS : 0,
  });
  return {
    cart: waiting ? undefined : (currentData ?? undefined),
    pending: waiting || (!!userId && currentData === undefined && !isError),
    error: isError && currentData === undefined,
  };
}
