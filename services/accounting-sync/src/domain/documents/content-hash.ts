import { createHash } from 'node:crypto';

/**
 * A stable hash of a document: sha256 (hex) of its JSON with object keys sorted at every level
 * (array order kept, undefined fields dropped as JSON does). Two documents with the same content
 * hash the same whatever order their keys were built in, so the sync can skip an unchanged write.
 */
export function contentHash(doc: unknown): string {
  return createHash('sha256').update(canonicalJson(doc)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
  return json ?? '';
}
