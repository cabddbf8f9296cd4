import { useEffect, useRef } from 'react';

/**
 * Infinite scroll: calls `onBottom` when the returned element (put at the end of a list) scrolls into
 * view, while `active`. The latest `onBottom` is called without re-observing on every render.
 */
export function useBottomSentinel(onBottom: () => void, active: boolean) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef(onBottom);
  latest.current = onBottom;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) latest.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [active]);
  return sentinel;
}
