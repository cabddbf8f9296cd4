/**
 * Keys pressed before a server-rendered page has hydrated. React ignores events on markup it has not
 * hydrated, and nothing else listens until the page's code is here, so an Enter pressed meanwhile in a
 * field of the server's markup was lost. The page's blocking head script (the shell's session-mark.ts)
 * notes Enter and Escape pressed in an input inside an element carrying `{...EARLY_KEYS_AREA}`; the
 * area's code takes them with `takeEarlyKeys` once it listens itself (the storefront's date field:
 * dormant-pickers.ts).
 */

const AREA_ATTRIBUTE = 'data-early-keys';
/** Spread on the element whose inputs' early keys are noted. */
export const EARLY_KEYS_AREA = { [AREA_ATTRIBUTE]: '' };
/** Where the head script keeps them, `[input id, key]`, until `takeEarlyKeys`. */
const NOTED = '__decorEarlyKeys';

/** The head script's part (ES5: the script is served as a file of its own, the CSP allows no inline code). */
export const EARLY_KEYS_SCRIPT = `(function(){var keys=window.${NOTED}=[];
document.addEventListener("keydown",function(e){var t=e.target;
if(window.${NOTED}!==keys||(e.key!=="Enter"&&e.key!=="Escape")||!t||t.tagName!=="INPUT"||!t.id||!t.closest||!t.closest("[${AREA_ATTRIBUTE}]"))return;
keys.push([t.id,e.key])},true)})();`;

/**
 * The keys noted so far, in order, and the end of the noting: the caller listens from now on. One
 * area a page: the first to take them takes them all.
 */
export function takeEarlyKeys(): [id: string, key: string][] {
  const page = window as unknown as Record<string, unknown>;
  const noted = page[NOTED];
  page[NOTED] = null;
  return Array.isArray(noted) ? (noted as [string, string][]) : [];
}
