/**
 * A public page rendered on the server (issue 17) carries the store's data it was rendered from, as
 * JSON in `<script type="application/json" id="decor-state">` (never inline code: the CSP allows no
 * inline script). The client starts its store from it, so its first render matches the HTML.
 * Only what a visitor sees travels: the RTK Query cache and the side navigation, never the session.
 */
import { createAction } from '@reduxjs/toolkit';

export const SERVER_STATE_ID = 'decor-state';

/** The slices a server-rendered page carries. */
export interface ServerState {
  api: unknown;
  sideNav: unknown;
}

/** Dispatched once, before the first render: RTK Query takes its answers (extractRehydrationInfo). */
export const serverStateArrived = createAction<ServerState>('serverState/arrived');

/** JSON safe inside a script element: no `</script>`, no `<!--`, no line separators that end it. */
export function serialiseServerState(state: ServerState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The state the page was rendered with, if it was rendered on the server. */
export function readServerState(doc: Document = document): ServerState | null {
  const element = doc.getElementById(SERVER_STATE_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as ServerState;
  } catch {
    return null;
  }
}
