/**
 * The QuickBooks session (spec orders §4 "Accounting session", §8): the accounting-sync service keeps
 * the QuickBooks tokens; when they can no longer be refreshed an API call answers 401 with the header
 * `qbo-session-expired: true`. That is NOT the site session (nobody is signed out): the axios
 * interceptor raises this flag and QboSessionBanner offers to renew it.
 */
import { QBO_SESSION_TEXTS } from '@decor/contracts/rules';
import { createAsyncThunk, createSlice, isAnyOf } from '@reduxjs/toolkit';
import { type ApiError, FALLBACK_MESSAGE, http, toApiError } from './http';
import { sessionExpired, signOut } from './session-slice';

export const QBO_TEXTS = { ...QBO_SESSION_TEXTS, clickHere: 'Click here', connect: 'Connect' } as const;

/** A renewal (GET /qbo/get/renewToken): none asked, under way, or its outcome until dismissed. */
export type QboRenewal = 'idle' | 'pending' | 'renewed' | 'failed';

export interface QboSessionState {
  /** A call was refused for want of a QuickBooks session (and no renewal has succeeded since). */
  expired: boolean;
  renewal: QboRenewal;
  /** The server's words on a successful renewal, else null. */
  message: string | null;
  /** Screens showing their own banner right now: the frame's banner steps aside while any does. */
  screenBanners: number;
}

export const initialQboSessionState = (): QboSessionState => ({
  expired: false,
  renewal: 'idle',
  message: null,
  screenBanners: 0,
});

/** GET /qbo/get/renewToken: 200 { message } renews the server's QuickBooks tokens. */
export const renewQboSession = createAsyncThunk<string, void, { rejectValue: ApiError }>(
  'qboSession/renew',
  async (_arg, { rejectWithValue }) => {
    try {
      const response = await http.get<{ message?: unknown }>('/qbo/get/renewToken');
      const message = response.data?.message;
      return typeof message === 'string' && message !== '' ? message : QBO_TEXTS.renewed;
    } catch (error) {
      return rejectWithValue(toApiError(error));
    }
  },
);

/** Leaving the page for QuickBooks' sign-in; a seam so tests can see where it would go. */
export const externalNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/**
 * GET /qbo/connect → { result: { url } }, then the browser goes to QuickBooks' authorisation page
 * (which comes back to /callback). Rejects with an ApiError.
 */
export async function connectQuickBooks(): Promise<void> {
  let url: unknown;
  try {
    const response = await http.get<{ result?: { url?: unknown } }>('/qbo/connect');
    url = response.data?.result?.url;
  } catch (error) {
    throw toApiError(error);
  }
  const target = typeof url === 'string' && url !== '' ? new URL(url, window.location.href) : null;
  if (!target || (target.protocol !== 'https:' && target.protocol !== 'http:')) {
    throw { status: 500, message: FALLBACK_MESSAGE } satisfies ApiError;
  }
  externalNavigation.assign(target.href);
}

const qboSessionSlice = createSlice({
  name: 'qboSession',
  initialState: initialQboSessionState,
  reducers: {
    /** Set by the axios interceptor on a 401 with `qbo-session-expired: true`. */
    qboSessionExpired(state) {
      state.expired = true;
      // A renewal under way reports its own outcome (its own 401 carries the header too).
      if (state.renewal !== 'pending') {
        state.renewal = 'idle';
        state.message = null;
      }
    },
    dismissQboSession(state) {
      state.expired = false;
      state.renewal = 'idle';
      state.message = null;
    },
    screenBannerShown(state) {
      state.screenBanners += 1;
    },
    screenBannerHidden(state) {
      state.screenBanners = Math.max(0, state.screenBanners - 1);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(renewQboSession.pending, (state) => {
        state.renewal = 'pending';
        state.message = null;
      })
      .addCase(renewQboSession.fulfilled, (state, action) => {
        state.expired = false;
        state.renewal = 'renewed';
        state.message = action.payload;
      })
      .addCase(renewQboSession.rejected, (state) => {
        state.renewal = 'failed';
        state.message = null;
      })
      // Whoever signs in next starts without the previous person's notice.
      .addMatcher(isAnyOf(signOut, sessionExpired), (state) => {
        state.expired = false;
        state.renewal = 'idle';
        state.message = null;
      });
  },
});

export const { qboSessionExpired, dismissQboSession, screenBannerShown, screenBannerHidden } =
  qboSessionSlice.actions;
export const qboSessionReducer = qboSessionSlice.reducer;
