/**
 * A server-rendered public page is a visitor's page (issue 17). A signed-in session (its token in
 * session storage, which the server never sees) must not see it, not even for a frame: prices, the
 * user menu and the customer's controls differ, and hydrating it with the session's state would not
 * match (React's #418). So the page carries, in its <head>, a tiny blocking script of the same origin
 * (the CSP allows no inline code) that marks <html> when a token is stored; the page's style then
 * hides the server's markup and shows the boot loader instead, and the client renders from scratch
 * (bootstrap.tsx), exactly as the plain shell does for a signed-in load. Visitors hydrate the markup.
 *
 * The same script starts the shell's entry once the page is painted. A deferred entry runs when the
 * parser ends, and when that came before the first frame (8 of 30 cold desktop visits on a 2-core
 * machine), the frame waited for the entry's whole evaluation: LCP 450-900 ms instead of ~250. So the
 * gateway holds the page's entry scripts back (`HELD_SCRIPT_TYPE`, which no browser runs) and this
 * script adds them, in order, after the first contentful paint and the parser's end (or a second after
 * the parser's end where no paint is reported: a background tab, a browser without paint timing).
 *
 * And, as the one script that runs before the page hydrates, it notes the keys pressed meanwhile in
 * the inventory's date field (web-core's early-keys.ts).
 */
import { EARLY_KEYS_SCRIPT, TOKEN_KEY } from '@decor/web-core';

/** The class on <html> while a signed-in load waits for its client render. */
export const SESSION_CLASS = 'decor-session';
/** The boot loader shown instead of the server's markup (outside #root, which is hidden meanwhile). */
export const SESSION_BOOT_ID = 'decor-boot';

/** The type of a page's entry script held back until its first paint (a `data-src` names the file). */
export const HELD_SCRIPT_TYPE = 'text/x-decor-after-first-paint';
/** Where no paint is reported, the entry starts this long after the parser's end. */
export const HELD_SCRIPT_FALLBACK_MS = 1000;

const MARK = `try{if(sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)}))document.documentElement.classList.add(${JSON.stringify(SESSION_CLASS)})}catch(e){}`;

// ES5, no inline code anywhere else: the script is served as a file of its own.
const START_AFTER_FIRST_PAINT = `(function(){var painted=false,parsed=false,started=false;
function start(){if(started||!painted||!parsed)return;started=true;
var held=document.querySelectorAll('script[type="${HELD_SCRIPT_TYPE}"]');
for(var i=0;i<held.length;i++){var s=document.createElement("script");s.src=held[i].getAttribute("data-src");s.async=false;document.head.appendChild(s)}}
try{if(PerformanceObserver.supportedEntryTypes.indexOf("paint")<0)throw 0;
new PerformanceObserver(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();painted=true;start()}}).observe({type:"paint",buffered:true})}catch(e){painted=true}
document.addEventListener("DOMContentLoaded",function(){parsed=true;start();setTimeout(function(){painted=true;start()},${HELD_SCRIPT_FALLBACK_MS})})})();`;

/** The blocking script's source (served by the gateway under a content-hashed name). */
export const SESSION_MARK_SCRIPT = `${MARK}\n${START_AFTER_FIRST_PAINT}\n${EARLY_KEYS_SCRIPT}\n`;

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
