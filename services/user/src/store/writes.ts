import type { EventEnvelope } from '@decor/contracts';
import { conflict } from '@decor/kit';
import type { Model } from 'mongoose';
import { MESSAGES } from '../domain/admin-rules';

const ATTEMPTS = 4;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Matches the stored revision; documents written before revisions existed have none (0). */
export function atRevision(revision: number | undefined): Record<string, unknown> {
  return revision ? { revision } : { revision: { $in: [0, null] } };
}

export function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}

/**
 * Read, compute, one revision-guarded write of the document with its events in its outbox; on a
 * concurrent change, again from the read. `compute` answers the fields to set and the events (or
 * null: nothing to write), or throws the refusal.
 */
export async function changeDocument<T extends { revision?: number }>(
  model: Model<T>,
  id: string,
  load: () => Promise<T | null>,
  compute: (current: T) => { set: Record<string, unknown>; events: EventEnvelope[] } | null,
): Promise<T | null> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const current = await load();
    if (!current) return null;
    const change = compute(current);
    if (!change) return current;
    const revision = (current.revision ?? 0) + 1;
    const updated = await model
      .findOneAndUpdate(
        { _id: id, deletedAt: null, ...atRevision(current.revision) } as never,
        { $set: { ...change.set, revision }, $push: { outbox: { $each: change.events } } } as never,
        { new: true },
      )
      .lean<T>();
    if (updated) return updated;
    await delay(5 * 2 ** attempt * (0.5 + Math.random()));
  }
  throw conflict(MESSAGES.changedMeanwhile);
}
