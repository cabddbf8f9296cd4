/**
 * The 'Check availability' days, remembered for the visit (session storage): every inventory screen
 * reads them, the picker sets them.
 */
import { useSyncExternalStore } from 'react';

export interface CheckedDates {
  from: string;
  to: string;
}

const KEY = 'availability-dates';
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: CheckedDates | null } = { raw: null, value: null };

function read(): CheckedDates | null {
  const raw = sessionStorage.getItem(KEY);
  if (raw !== cached.raw) {
    let value: CheckedDates | null = null;
    try {
      const parsed = raw ? (JSON.parse(raw) as CheckedDates) : null;
      if (parsed && typeof parsed.from === 'string' && typeof parsed.to === 'string') value = parsed;
    } catch {
      value = null;
    }
    cached = { raw, value };
  }
  return cached.value;
}

export function setCheckedDates(dates: CheckedDates | null): void {
  if (dates) sessionStorage.setItem(KEY, JSON.stringify(dates));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The days being checked, or null when the visitor has not chosen any. */
export function useCheckedDates(): CheckedDates | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
