import { SUCCESS_BANNER_MS } from '@decor/web-core';
import { useEffect, useRef, useState } from 'react';

/** A success message that goes away after 2500 ms (spec §9): the text shown, and how to show one. */
export function useFlash(): [string | null, (text: string) => void] {
  const [text, setText] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const show = (next: string) => {
    if (timer.current) clearTimeout(timer.current);
    setText(next);
    timer.current = setTimeout(() => setText(null), SUCCESS_BANNER_MS);
  };
  return [text, show];
}
