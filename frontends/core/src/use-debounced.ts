import { useEffect, useState } from 'react';

/** How long typing settles before a search asks the server. */
export const SEARCH_DELAY_MS = 300;

/** `value` once it has stopped changing for `delay` ms (a search box's query). */
export function useDebounced<T>(value: T, delay = SEARCH_DELAY_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
