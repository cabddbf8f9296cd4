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

type TopicEnds = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

/** Per admin client and topic: the read of the topic's ends under way, and the one queued after it. */
const reads = new WeakMap<Admin, Map<string, { current?: Promise<TopicEnds>; next?: Promise<TopicEnds> }>>();

/**
 * Where `topic` ends, read after this call began. Calls that arrive together share reads: with one
 * under way (it may have started before them, so it does not count), they all wait for the single
 * read queued after it. A burst of requests then costs Kafka two reads, not one each.
 */
export function topicEnds(admin: Admin, topic: string): Promise<TopicEnds> {
  const byTopic = reads.get(admin) ?? new Map();
  reads.set(admin, byTopic);
  const state = byTopic.get(topic) ?? {};
  byTopic.set(topic, state);
  const start = (): Promise<TopicEnds> => {
    const read = admin.fetchTopicOffsets(topic);
    state.current = read;
    const done = () => {
      if (state.current === read) state.current = undefined;
    };
    read.then(done, done);
    return read;
  };
  if (!state.current) return start();
  if (!state.next) {
    const next = state.current.then(start, start);
    state.next = next;
    const done = () => {
      if (state.next === next) state.next = undefined;
    };
    // Once it has started it is `current`; newcomers queue behind it.
    void state.current.then(done, done);
  }
  return state.next;
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
  const ends = await withinMs(topicEnds(admin, topic), Math.min(kafkaTimeoutMs, timeoutMs), 'events');
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
