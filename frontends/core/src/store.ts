/** The one store. The shell creates it; remotes reach it through react-redux (a shared singleton). */
import { configureStore } from '@reduxjs/toolkit';
import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { onSessionExpired } from './http';
import { sessionExpired, sessionReducer } from './session-slice';
import { sideNavReducer } from './side-nav-slice';

export function createAppStore() {
  const store = configureStore({
    reducer: { session: sessionReducer, sideNav: sideNavReducer, [api.reducerPath]: api.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  onSessionExpired(() => {
    store.dispatch(sessionExpired());
    store.dispatch(api.util.resetApiState());
  });
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch: () => AppDispatch = useDispatch;
export const useAppSelector: TypedUseSelectorHook<RootState> = useSelector;
