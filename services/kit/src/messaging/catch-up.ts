import type { Admin } from 'kafkajs';
import type { Connection } from 'mongoose';
import { withinMs } from '../http/unavailable';
import { CONSUMER_PROGRESS_COLLECTION, progressId } from './consumer';

export interface CatchUpOptions {
  admin: Admin;
  connection: Connection;
  groupId: string;
  topic: string;
  /** Give up after this long and answer false (the caller proceeds with what it has). Default 3000. */
  timeoutMs?: number;
  /**
   * Reading where the topic ends is given this long; Kafka not answering by then throws
   * DependencyUnavailableError (a request answers 503) instead of kafkajs retrying for 10-30 s.
   * Default 2000.
   */
  kafkaTimeoutMs?: number;
  pollMs?: number;
}

/**
 * Waits until the consumer group (any of its instances) has handled every message that was on
 * `topic` when this was called. A projection read right after then reflects all events published
 * before the request arrived — read-your-writes across services without calling the other service.
 */
export async function waitForCatchUp({
  admin,
  connection,
  groupId,
  topic,
  timeoutMs = 3000,
  kafkaTimeoutMs = 2000,
  pollMs = 15,
}: CatchUpOptions): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const ends = await withinMs(admin.fetchTopicOffsets(topic), Math.min(kafkaTimeoutMs, timeoutMs), 'events');
  // `high` is the next offset to be written: the last message present is high - 1.
  let pending = ends
    .filter((p) => Number(p.high) > Number(p.low))
    .map((p) => ({ _id: progressId(groupId, topic, p.partition), last: Number(p.high) - 1 }));
  const progress = connection.collection<{ _id: string; offset: number }>(CONSUMER_PROGRESS_COLLECTION);
  while (pending.length > 0) {
    const seen = await progress.find({ _id: { $in: pending.map((p) => p._id) } }).toArray();
    const reached = new Map(seen.map((s) => [s._id, s.offset]));
    pending = pending.filter((p) => (reached.get(p._id) ?? -1) < p.last);
    if (pending.length === 0) break;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return true;
}
