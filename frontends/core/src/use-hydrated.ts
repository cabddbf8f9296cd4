import { useSyncExternalStore } from 'react';

const noChange = () => () => {};

/**
 * False on the server and while React hydrates a server-rendered page (the server's snapshot), true
 * from then on and in any client render.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
