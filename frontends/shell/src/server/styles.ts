/**
 * antd's styles for a server-rendered page, named as antd in the browser looks for them, so that
 * hydrating the page adds none (issue 31): a style element added to a painted page has the browser
 * restyle all of it, one more long task on a phone. Two differ from what cssinjs' extractStyle gives:
 * - the theme's CSS variables (`.css-var-<key>{--ant-…}`, 12 KB): extractStyle names that style by the
 *   token's key, the browser looks for `hash('css-var-' + key)` (cssinjs 2's useCacheToken), finds
 *   none and adds a second copy;
 * - the icons' base style (`.anticon`), which @ant-design/icons adds in the browser when the first
 *   icon mounts and the server never writes: icons were unstyled until then.
 */
import { iconStyles } from '@ant-design/icons/es/utils';

/**
 * The hash cssinjs names its styles with: @emotion/hash 0.8 (MurmurHash2, by Gary Court and Austin
 * Appleby, MIT), copied as cssinjs does not export it.
 */
export function cssinjsHash(str: string): string {
  let h = 0;
  let k: number;
  let i = 0;
  let len = str.length;
  for (; len >= 4; ++i, len -= 4) {
    k =
      (str.charCodeAt(i) & 0xff) |
      ((str.charCodeAt(++i) & 0xff) << 8) |
      ((str.charCodeAt(++i) & 0xff) << 16) |
      ((str.charCodeAt(++i) & 0xff) << 24);
    k = (k & 0xffff) * 0x5bd1e995 + (((k >>> 16) * 0xe995) << 16);
    k ^= k >>> 24;
    h =
      ((k & 0xffff) * 0x5bd1e995 + (((k >>> 16) * 0xe995) << 16)) ^
      ((h & 0xffff) * 0x5bd1e995 + (((h >>> 16) * 0xe995) << 16));
  }
  // The last one to three bytes.
  if (len >= 3) h ^= (str.charCodeAt(i + 2) & 0xff) << 16;
  if (len >= 2) h ^= (str.charCodeAt(i + 1) & 0xff) << 8;
  if (len >= 1) {
    h ^= str.charCodeAt(i) & 0xff;
    h = (h & 0xffff) * 0x5bd1e995 + (((h >>> 16) * 0xe995) << 16);
  }
  h ^= h >>> 13;
  h = (h & 0xffff) * 0x5bd1e995 + (((h >>> 16) * 0xe995) << 16);
  return ((h ^ (h >>> 15)) >>> 0).toString(36);
}

/** The theme's CSS variables: `<style … data-token-hash="<key>" data-css-hash="<id>">.<key>{`. */
const THEME_VARIABLES =
  /(<style\b[^>]*\bdata-token-hash="([^"]+)"[^>]*\bdata-css-hash=")[^"]*("[^>]*>\.\2\{)/g;

/** The icons' base style, as @ant-design/icons writes it (its updateCSS key, in rc-util's attribute). */
export const ICON_STYLE = `<style rc-util-key="@ant-design-icons">${iconStyles}</style>`;

/** extractStyle's `<style>` elements, as the browser's antd names them, after the icons' base style. */
export function hydratableStyles(extracted: string): string {
  const named = extracted.replace(
    THEME_VARIABLES,
    (_all, open: string, key: string, close: string) => `${open}${cssinjsHash(`css-var-${key}`)}${close}`,
  );
  return `${ICON_STYLE}${named}`;
}
