import type { Admin } from 'kafkajs';
import type { Connection } from 'mongoose';
import { withinMs } from '../http/unavailable';
import { CONSUMER_PROGRESS_COLLECTION, progressId } from './consumer';
import { fetchTopicOffsets, type TopicOffsets } from './topic-offsets';

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

/** Per admin client and topic: the read of the topic's ends under way, and the one queued after it. */
const reads = new WeakMap<
  Admin,
  Map<string, { current?: Promise<TopicOffsets>; next?: Promise<TopicOffsets> }>
>();

/**
 * Where `topic` ends, read after this call began. Calls that arrive together share reads: with one
 * under way (it may have started before them, so it does not count), they all wait for the single
 * read queued after it. A burst of requests then costs Kafka two reads, not one each.
 */
export function topicEnds(admin: Admin, topic: string): Promise<TopicOffsets> {
  const byTopic = reads.get(admin) ?? new Map();
  reads.set(admin, byTopic);
  const state = byTopic.get(topic) ?? {};
  byTopic.set(topic, state);
  const start = (): Promise<TopicOffsets> => {
    const read = fetchTopicOffsets(admin, topic);
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

interface ProgressWaiter {
  /** Progress document id → the offset it must reach. */
  targets: Map<string, number>;
  deadline: number;
  pollMs: number;
  resolve(caughtUp: boolean): void;
  reject(err: unknown): void;
}

/**
 * The callers of one process waiting for consumer progress, served by one read loop per database
 * connection: each read of the progress documents answers every waiter at once. Two hundred requests
 * waiting together cost one read per round, not one each every `pollMs` (which, under a burst, was
 * most of a service's database traffic). Progress only grows (`$max`), so a read that began before a
 * waiter arrived still proves what it shows.
 */
class ProgressWatch {
  private readonly waiters = new Set<ProgressWaiter>();
  private reading = false;
  private wake?: () => void;

  constructor(private readonly connection: Connection) {}

  wait(targets: Map<string, number>, deadline: number, pollMs: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiters.add({ targets, deadline, pollMs, resolve, reject });
      // A newcomer is checked at once (most find their consumer already there), without a read per caller.
      if (this.wake) this.wake();
      else if (!this.reading) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.reading = true;
    const progress = this.connection.collection<{ _id: string; offset: number }>(
      CONSUMER_PROGRESS_COLLECTION,
    );
    try {
      while (this.waiters.size > 0) {
        const ids = new Set<string>();
        for (const w of this.waiters) for (const id of w.targets.keys()) ids.add(id);
        let seen: { _id: string; offset: number }[];
        try {
          seen = await progress.find({ _id: { $in: [...ids] } }).toArray();
        } catch (err) {
          for (const w of this.waiters) w.reject(err);
          this.waiters.clear();
          return;
        }
        const reached = new Map(seen.map((s) => [s._id, s.offset]));
        const now = Date.now();
        for (const w of this.waiters) {
          for (const [id, last] of w.targets) if ((reached.get(id) ?? -1) >= last) w.targets.delete(id);
          if (w.targets.size === 0) w.resolve(true);
          else if (now >= w.deadline) w.resolve(false);
          else continue;
          this.waiters.delete(w);
        }
        if (this.waiters.size === 0) return;
        let pause = Number.POSITIVE_INFINITY;
        for (const w of this.waiters) pause = Math.min(pause, w.pollMs, Math.max(0, w.deadline - now));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, pause);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.wake = done;
        });
        this.wake = undefined;
      }
    } finally {
      this.reading = false;
    }
  }
}

const watches = new WeakMap<Connection, ProgressWatch>();

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
  const targets = new Map(
    ends
      .filter((p) => Number(p.high) > Number(p.low))
      .map((p) => [progressId(groupId, topic, p.partition), Number(p.high) - 1] as const),
  );
  if (targets.size === 0) return true;
  let watch = watches.get(connection);
  if (!watch) {
    watch = new ProgressWatch(connection);
    watches.set(connection, watch);
  }
  return watch.wait(targets, deadline, pollMs);
}
