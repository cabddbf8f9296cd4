import { Type } from '@sinclair/typebox';

export const OBJECT_ID_PATTERN = '^[0-9a-fA-F]{24}$';

/** A MongoDB ObjectId as a 24-hex string; a malformed one is a 400 ('Invalid id') before any DB call. */
export function objectId(options: { description?: string } = {}) {
  return Type.String({ ...options, pattern: OBJECT_ID_PATTERN, 'x-message': 'Invalid {field}' });
}

/** Params schema of `/thing/:id` routes. */
export const objectIdParam = Type.Object({ id: objectId() }, { additionalProperties: false });
