/** Name rules of QuickBooks (QUICKBOOKS-NOTES.md §3) and the site's category keys (spec §3). */

/** QuickBooks' limit on a Customer DisplayName. */
export const DISPLAY_NAME_MAX_LENGTH = 500;
/** QuickBooks' limit on an Item Name (Item names are also joined with ':' into FullyQualifiedName). */
export const ITEM_NAME_MAX_LENGTH = 100;

/**
 * A name QuickBooks accepts: no ':' (it separates parent and child in FullyQualifiedName), tab or
 * newline. ':' becomes ' -', every run of whitespace one space; trimmed and cut to `maxLength`
 * characters (code points, so a cut never splits a surrogate pair).
 */
export function qboDisplayName(s: string, maxLength = DISPLAY_NAME_MAX_LENGTH): string {
  const text = s.replace(/:/g, ' -').replace(/\s+/g, ' ').trim();
  return truncate(text, maxLength).trimEnd();
}

/** Cut to at most `maxLength` code points. */
export function truncate(text: string, maxLength: number): string {
  const chars = Array.from(text);
  return chars.length <= maxLength ? text : chars.slice(0, maxLength).join('');
}

const CATEGORY_KEY_SEPARATOR = '__';

/**
 * Spec §3: a category or subcategory can arrive as '{id}__{name}', whose id is the QuickBooks
 * reference. '12__BARS' → { id: '12', name: 'BARS' }; a plain 'BARS' (or '__BARS') has no id. Only
 * the first '__' separates, so a name may itself contain '__'.
 */
export function splitCategoryKey(key: string): { id?: string; name: string } {
  const at = key.indexOf(CATEGORY_KEY_SEPARATOR);
  if (at < 0) return { name: key.trim() };
  const id = key.slice(0, at).trim();
  const name = key.slice(at + CATEGORY_KEY_SEPARATOR.length).trim();
  return id ? { id, name } : { name };
}

/** The inverse of splitCategoryKey: ('12', 'BARS') → '12__BARS'. */
export function categoryKey(id: string, name: string): string {
  return `${id}${CATEGORY_KEY_SEPARATOR}${name}`;
}

/** QuickBooks' limit on a line's (and an item's) Description. */
export const DESCRIPTION_MAX_LENGTH = 4000;

/** A rental line's text: 'Gold Chiavari Chair — Resin, with cushion', or the name alone. */
export function lineDescription(name: string, description: string): string {
  const parts = [name.trim(), description.trim()].filter(Boolean);
  return truncate(parts.join(' — '), DESCRIPTION_MAX_LENGTH);
}
