import type { EventEnvelope } from '@decor/contracts';
import { afterLostRace } from '@decor/kit';
import type { Model } from 'mongoose';
import { type Refused, refuse } from '../domain/refusals';

/**
 * Every change is ONE write of the user's or company's document with its events in its outbox (the
 * relay publishes them): read, compute, write only if the document still has the revision it was
 * read at; on a concurrent change, again from the read.
 */

const ATTEMPTS = 4;

/** Matches the stored revision; documents written before revisions existed have none (0). */
export function atRevision(revision: number | undefined): Record<string, unknown> {
  return revision ? { revision } : { revision: { $in: [0, null] } };
}

export function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}

/** What a change sets and announces. */
export interface DocumentChange {
  set: Record<string, unknown>;
  events: EventEnvelope[];
}

/**
 * Read, compute, one revision-guarded write of the document with its events in its outbox; on a
 * concurrent change, again from the read. `compute` answers the change (or null: nothing to write,
 * the document as read is the answer) or a refusal, which is answered as is. Null when the document
 * is not there (or deleted); refused as changed meanwhile after a few lost races.
 */
export async function changeDocument<T extends { revision?: number }>(
  model: Model<T>,
  id: string,
  load: () => Promise<T | null>,
  compute: (current: T) => DocumentChange | null | Refused,
): Promise<T | null | Refused> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const current = await load();
    if (!current) return null;
    const change = compute(current);
    if (!change) return current;
    if ('refused' in change) return change;
    const revision = (current.revision ?? 0) + 1;
    const updated = await model
      .findOneAndUpdate(
        { _id: id, deletedAt: null, ...atRevision(current.revision) } as never,
        { $set: { ...change.set, revision }, $push: { outbox: { $each: change.events } } } as never,
        { new: true },
      )
      .lean<T>();
    if (updated) return updated;
    await afterLostRace(attempt);
  }
  return refuse('changedMeanwhile');
}
