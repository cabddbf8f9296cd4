/**
 * Stripe's request encoding: form fields (bodies and query strings) with bracketed keys, as the
 * `stripe` client writes them (qs's indexed format): `metadata[estimateId]=e1`, `expand[0]=latest_charge`.
 */

export type Params = { [key: string]: unknown };

/** `a[b][0]=x` → `{ a: { b: ['x'] } }`; a repeated key's last value wins, `x[]=` appends. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const keys = splitKey(rawKey);
    let node = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      if (key === '') {
        // `expand[]=a&expand[]=b`: the next free index
        key = String(Object.keys(node).length);
      }
      if (last) {
        node[key] = value;
        return;
      }
      const next = node[key];
      if (next === undefined || typeof next !== 'object') node[key] = {};
      node = node[key] as Params;
    });
  }
  return arraysOf(root) as Params;
}

/** `card[number]` → ['card', 'number']; `expand[]` → ['expand', '']. */
function splitKey(key: string): string[] {
  const first = key.indexOf('[');
  if (first <= 0) return [key];
  const parts = [key.slice(0, first)];
  for (const m of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(m[1] ?? '');
  return parts;
}

/** Objects whose keys are exactly 0..n-1 become arrays. */
function arraysOf(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const k of keys) obj[k] = arraysOf(obj[k]);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => obj[k]);
  return obj;
}
