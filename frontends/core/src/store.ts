/** The one store. The shell creates it; remotes reach it through react-redux (a shared singleton). */
import { configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { onQboSessionExpired, onSessionExpired } from './http';
import { qboSessionExpired, qboSessionReducer } from './qbo-session-slice';
import { type ServerState, serverStateArrived } from './server-state';
import { sessionExpired, sessionReducer, signedIn, signOut, validateSession } from './session-slice';
import { type SideNavState, sideNavReducer } from './side-nav-slice';

/** Every kind of server data: what the server answers depends on who asks (prices, stock, carts). */
const ALL_TAGS = ['Product', 'Cart', 'CartList', 'ActiveCart', 'Estimate', 'Trucking'] as const;

/** The store; `serverState` when the page was rendered on the server (its first render must match). */
export function createAppStore(serverState?: ServerState | null) {
  // When the viewer changes (sign-in, sign-out, expiry, another user), cached answers are stale: a
  // visitor's product list has no prices. Refetch whatever is on screen, drop the rest.
  const viewerChanges = createListenerMiddleware();
  viewerChanges.startListening({
    matcher: isAnyOf(signedIn, signOut, sessionExpired, validateSession.fulfilled),
    effect: (_action, listenerApi) => {
      const before = (
        listenerApi.getOriginalState() as { session: { user: { id: string; permissions: string } | null } }
      ).session.user;
      const after = (
        listenerApi.getState() as { session: { user: { id: string; permissions: string } | null } }
      ).session.user;
      if (before?.id !== after?.id || before?.permissions !== after?.permissions) {
        listenerApi.dispatch(api.util.invalidateTags([...ALL_TAGS]));
      }
    },
  });
  const store = configureStore({
    reducer: {
      session: sessionReducer,
      sideNav: sideNavReducer,
      qboSession: qboSessionReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().prepend(viewerChanges.middleware).concat(api.middleware),
    ...(serverState ? { preloadedState: { sideNav: serverState.sideNav as SideNavState } } : {}),
  });
  if (serverState) store.dispatch(serverStateArrived(serverState));
  onSessionExpired(() => {
    store.dispatch(sessionExpired());
    store.dispatch(api.util.resetApiState());
  });
  // The QuickBooks connection needs renewal: say so (QboSessionBanner); the site session stays.
  onQboSessionExpired(() => {
    store.dispatch(qboSessionExpired());
  });
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch: () => AppDispatch = useDispatch;
export const useAppSelector: TypedUseSelectorHook<RootState> = useSelector;
