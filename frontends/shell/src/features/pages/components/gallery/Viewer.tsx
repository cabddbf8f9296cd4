import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Spec §9 viewer defaults: fade 0.3 s, counter separator ' of '. */
export const FADE_SECONDS = 0.3;
export const COUNTER_SEPARATOR = ' of ';

export interface ViewerImage {
  src: string;
  alt: string;
  caption: string;
}

/**
 * Full-screen image viewer (spec §1): previous/next arrows (hidden at the first/last image), close,
 * caption, counter 'n of m', keyboard ←/→/Escape, and no navigation until the current image has loaded.
 */
export function Viewer({
  images,
  start,
  onClose,
}: {
  images: readonly ViewerImage[];
  start: number;
  onClose: () => void;
}) {
  const [index, setIndex] = useState(start);
  const [loaded, setLoaded] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const image = images[index];
  const hasPrev = index > 0;
  const hasNext = index < images.length - 1;

  const go = useCallback(
    (step: -1 | 1) => {
      if (!loaded) return; // blocked until the current image has loaded
      const next = index + step;
      if (next < 0 || next >= images.length) return;
      setLoaded(false);
      setIndex(next);
    },
    [index, images.length, loaded],
  );

  useEffect(() => {
    // Closing gives the focus back to what opened the viewer (the photo's tile).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    window.scrollTo(0, 0);
    closeRef.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus({ preventScroll: true });
    };
  }, []);

  // A layout effect: the listener holding the new `loaded` is in place when the enabled arrows are
  // committed. A passive effect ran later, so a key pressed as soon as the photo showed went to the
  // previous listener, which still thought the photo was loading, and was lost (seen in CI's journey).
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab') keepFocusInside(event, dialogRef.current);
      else if (event.key === 'Escape') onClose();
      else if (event.key === 'ArrowLeft') go(-1);
      else if (event.key === 'ArrowRight') go(1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, onClose]);

  if (!image) return null;
  return (
    <div ref={dialogRef} className="viewer" role="dialog" aria-modal="true" aria-label="Image viewer">
      <button ref={closeRef} type="button" className="close" aria-label="Close" onClick={onClose}>
        ×
      </button>
      {hasPrev ? (
        <button
          type="button"
          className="nav prev"
          aria-label="Previous image"
          onClick={() => go(-1)}
          disabled={!loaded}
        >
          ‹
        </button>
      ) : null}
      <img
        key={image.src}
        src={image.src}
        alt={image.alt}
        onLoad={() => setLoaded(true)}
        onError={() => setLoaded(true)}
        style={{ opacity: loaded ? 1 : 0, transition: `opacity ${FADE_SECONDS}s ease` }}
      />
      {hasNext ? (
        <button
          type="button"
          className="nav next"
          aria-label="Next image"
          onClick={() => go(1)}
          disabled={!loaded}
        >
          ›
        </button>
      ) : null}
      <div className="meta">
        <div>{image.caption}</div>
        <div className="counter" aria-live="polite">
          {index + 1}
          {COUNTER_SEPARATOR}
          {images.length}
        </div>
      </div>
    </div>
  );
}

/** A modal dialog keeps the focus: Tab from its last control goes to its first, Shift+Tab the other way. */
function keepFocusInside(event: KeyboardEvent, dialog: HTMLElement | null): void {
  if (!dialog) return;
  const controls = [
    ...dialog.querySelectorAll<HTMLElement>('button:not(:disabled), [href], [tabindex]'),
  ].filter((el) => el.tabIndex >= 0);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  const inside = active instanceof Node && dialog.contains(active);
  if (event.shiftKey && (!inside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}
