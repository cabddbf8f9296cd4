/**
 * A date field the server rendered stays the server's markup until its picker's code is here (the
 * page hydrates around it: DateField). What the visitor does to it meanwhile is kept here: reaching
 * for it (pointing at it, pressing on it, tabbing to it) loads the picker; the day typed into it and
 * Enter or Escape pressed there are handed to the picker when it takes over, as if it had been there.
 * React ignores events on markup it has not hydrated yet, so these are listened to on the document,
 * before React. Before this module is here at all (the page still hydrating), the page's head script
 * notes Enter and Escape pressed in the field (web-core's early-keys.ts); they are handed over too.
 * Any field of the area is dormant until its picker has taken over (takeOver done): its own boundary
 * hydrates in a pass of its own, after the listener is here, and Enter pressed while the picker takes
 * over must wait behind the day typed (dormant-pickers.test).
 */
import { takeEarlyKeys } from '@decor/web-core';

/** Keys pressed in fields still showing the server's markup (input id → keys, in order). */
const dormant = new Map<string, string[]>();
const HANDED_KEYS = new Set(['Enter', 'Escape']);
/** The fields whose picker has taken over: their events are React's alone. */
const live = new Set<string>();
/** True while takeOver gives the picker an event itself: the listener lets it through. */
let replaying = false;

/** The keys queued for field `id` (a new queue if none). */
function keysOf(id: string): string[] {
  const keys = dormant.get(id) ?? [];
  dormant.set(id, keys);
  return keys;
}

/** The keys the page's head script noted in `area`'s fields before this module was here. */
function adoptEarlyKeys(area: HTMLElement): boolean {
  let adopted = false;
  for (const [id, key] of takeEarlyKeys()) {
    const input = document.getElementById(id);
    if (!input || !area.contains(input) || !HANDED_KEYS.has(key)) continue;
    keysOf(id).push(key);
    adopted = true;
  }
  return adopted;
}

/**
 * Listens on the document for the visitor reaching for a dormant field inside `area` (its labels
 * included); `reach` then loads the picker. Returns the clean-up.
 */
export function armDormantPickers(area: HTMLElement, reach: () => void): () => void {
  const onEvent = (event: Event) => {
    const target = event.target;
    if (replaying || !(target instanceof Node) || !area.contains(target)) return;
    const field = target instanceof HTMLInputElement ? target : undefined;
    if (field && live.has(field.id)) return;
    reach();
    if (!field?.id) return;
    if (event.type === 'keydown' && HANDED_KEYS.has((event as KeyboardEvent).key)) {
      keysOf(field.id).push((event as KeyboardEvent).key);
      // The picker gets it from takeOver, in order (it may be listening already, before the day typed).
      event.stopPropagation();
    }
    // React would replay this focus once the field hydrates, after the keys handed over: the picker
    // would open again over a day already chosen. takeOver focuses it in order instead.
    if (event.type === 'focusin') event.stopPropagation();
  };
  const types = ['pointerover', 'pointerdown', 'focusin', 'keydown'] as const;
  for (const type of types) document.addEventListener(type, onEvent, true);
  // Keys pressed before this listener was here: the visitor has reached for the field already.
  if (adoptEarlyKeys(area)) reach();
  return () => {
    for (const type of types) document.removeEventListener(type, onEvent, true);
  };
}

/** Sets an input's text so that React's change tracking sees it as typed. */
function type(input: HTMLInputElement, text: string): void {
  input.value = text === '' ? ' ' : ''; // React's tracker now differs from the text
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** After React has rendered what the last event changed (it does so in a microtask, not at once). */
const rendered = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Gives the picker an event as the visitor's, past the listener. */
function replay(give: () => void): void {
  replaying = true;
  try {
    give();
  } finally {
    replaying = false;
  }
}

/**
 * The picker of field `id` has taken over its markup (`shown`: the text it renders): it gets the
 * focus, the text and the keys the visitor gave the dormant field, in that order, each once the
 * picker has rendered the one before (its key handler reads the text it rendered). Keys pressed
 * meanwhile join the queue; the field is live once the queue is empty.
 */
export async function takeOver(id: string, shown: string): Promise<void> {
  if (live.has(id)) return; // mounted again: nothing was left to it
  const keys = keysOf(id);
  const input = document.getElementById(id);
  if (input instanceof HTMLInputElement) {
    // A picker rendered in the browser (not over the server's markup) finds its own text, unfocused.
    const typed = input.value;
    if (document.activeElement === input) {
      // Focus again, now that React listens: the picker opens as it does when focused.
      replay(() => {
        input.blur();
        input.focus();
      });
      await rendered();
    }
    if (typed !== shown) {
      type(input, typed);
      await rendered();
    }
    for (let key = keys.shift(); key !== undefined; key = keys.shift()) {
      const pressed = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      replay(() => input.dispatchEvent(pressed));
      await rendered();
    }
  }
  dormant.delete(id);
  live.add(id);
}
