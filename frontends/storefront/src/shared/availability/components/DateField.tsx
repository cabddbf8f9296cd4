import { chunkOnce, useChunk, useHydrated } from '@decor/web-core';
import { memo, Suspense, use, useCallback, useRef } from 'react';
import type { DayPickerProps } from './DayPicker';

/** antd's pickers (their own chunk, with dayjs). */
const dayPickers = chunkOnce(() => import('./DayPicker'));

/** The server renderer has no chunks to wait for: it hands the module over before rendering. */
export function provideDayPicker(module: typeof import('./DayPicker')): void {
  dayPickers.provide(module);
}

let reachedResolve: (() => void) | undefined;
/** Settles once the visitor has reached for a field and the picker is here. */
const reached = new Promise<void>((resolve) => {
  reachedResolve = resolve;
});

/** The visitor reaches for a dormant field: load the picker (a failed load waits for the next reach). */
export function reachForPicker(): void {
  dayPickers.load().then(
    () => reachedResolve?.(),
    () => undefined,
  );
}

function Picker(props: DayPickerProps) {
  // The server's markup: on the server and while React hydrates it.
  const serverMarkup = !useHydrated();
  // A render in the browser (not the server's markup): the pickers load at once.
  const DayPicker = useChunk(dayPickers)?.default;
  if (DayPicker) return <DayPicker {...props} />;
  if (serverMarkup && typeof document !== 'undefined') {
    // Hydrating a visitor's page: the server's markup stays (React keeps a suspended boundary's
    // markup as it is, and runs none of its effects) until the visitor reaches for the field.
    use(reached);
  }
  return null;
}

// Memoised with steady callbacks: an update reaching a boundary React has not hydrated yet makes it
// drop the server's markup and render it afresh (no field until the pickers are here).
const Boundary = memo(function Boundary(props: DayPickerProps) {
  return (
    <Suspense fallback={null}>
      <Picker {...props} />
    </Suspense>
  );
});

/**
 * A day field of 'Check availability' (antd's DatePicker): antd's pickers are not downloaded with the
 * page. In a page rendered in the browser they load at once. In the server's page a visitor sees the
 * server's markup of the field, and they load when the visitor reaches for it (DateCheck arms that:
 * dormant-pickers.ts).
 */
export function DateField(props: DayPickerProps) {
  const latest = useRef(props);
  latest.current = props;
  const onChange = useCallback((day: string | null) => latest.current.onChange(day), []);
  const disabledDay = useCallback((day: string) => latest.current.disabledDay?.(day) ?? false, []);
  return (
    <Boundary
      id={props.id}
      value={props.value}
      disabled={props.disabled}
      disabledDay={disabledDay}
      onChange={onChange}
    />
  );
}
