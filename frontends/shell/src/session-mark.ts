/**
 * A server-rendered public page is a visitor's page (issue 17). A signed-in session (its token in
 * session storage, which the server never sees) must not see it, not even for a frame: prices, the
 * user menu and the customer's controls differ, and hydrating it with the session's state would not
 * match (React's #418). So the page carries, in its <head>, a tiny blocking script of the same origin
 * (the CSP allows no inline code) that marks <html> when a token is stored; the page's style then
 * hides the server's markup and shows the boot loader instead, and the client renders from scratch
 * (bootstrap.tsx), exactly as the plain shell does for a signed-in load. Visitors hydrate the markup.
 */
import { TOKEN_KEY } from '@decor/web-core';

/** The class on <html> while a signed-in load waits for its client render. */
export const SESSION_CLASS = 'decor-session';
/** The boot loader shown instead of the server's markup (outside #root, which is hidden meanwhile). */
export const SESSION_BOOT_ID = 'decor-boot';

/** The blocking script's source (served by the gateway under a content-hashed name). */
export const SESSION_MARK_SCRIPT = `try{if(sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)}))document.documentElement.classList.add(${JSON.stringify(SESSION_CLASS)})}catch(e){}\n`;

/** The rules that hide the visitor's markup from a signed-in load (styles may be inline). */
export const SESSION_MARK_STYLE = `<style>#${SESSION_BOOT_ID}{display:none}html.${SESSION_CLASS} #root{display:none}html.${SESSION_CLASS} #${SESSION_BOOT_ID}{display:flex}</style>`;

/** The loader a signed-in load shows until the client's first render (index.html's `.boot`). */
export const SESSION_BOOT = `<div id="${SESSION_BOOT_ID}" class="boot">Loading…</div>`;

/**
 * A signed-in load of a server-rendered page: drop the visitor's markup for the plain shell's loader,
 * then unmark <html>, in one task (nothing is painted in between); the client renders into the root.
 */
export function dropServerPage(root: HTMLElement, doc: Document = document): void {
  doc.getElementById(SESSION_BOOT_ID)?.remove();
  const boot = doc.createElement('div');
  boot.className = 'boot';
  boot.textContent = 'Loading…';
  root.replaceChildren(boot);
  doc.documentElement.classList.remove(SESSION_CLASS);
}
