import type { Admin } from 'kafkajs';
import { DependencyUnavailableError } from '../http/unavailable';

export type TopicOffsets = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

/**
 * kafkajs' answers that mean "ask again after a metadata refresh", which its admin does not retry:
 * - a bare TypeError ("Cannot destructure property 'partitions' of 'high.pop(...)'") while its
 *   metadata names no partition leaders yet (seen right after an outage);
 * - a partition's leadership still moving (seen on a fresh start, just after a topic is created: the
 *   metadata names the leader a moment before that broker serves it). kafkajs retries only an
 *   unknown topic here and passes these on at once.
 */
const LEADER_MOVING = new Set(['NOT_LEADER_FOR_PARTITION', 'LEADER_NOT_AVAILABLE']);
const askAgain = (err: unknown) =>
  err instanceof TypeError || LEADER_MOVING.has((err as { type?: string } | null)?.type ?? '');

export interface OffsetReadOptions {
  /** Reads in all, the first included. Default 4. */
  attempts?: number;
  /**
   * Also ask again on any refusal kafkajs calls retriable (a request timed out, a broker away), for a
   * reader joining, whose next attempt would be seconds away. Still refused after the attempts, that
   * refusal is passed on as it is.
   */
  anyRetriable?: boolean;
}

/**
 * Runs one of the admin's offset reads of `topic`, safe just after Kafka comes back or a topic is
 * created: the answers above refresh the metadata and ask again, a few times; still failing, it is
 * Kafka being unavailable (a request answers 503, not 500).
 */
async function readOffsets<T>(
  admin: Admin,
  topic: string,
  read: () => Promise<T>,
  { attempts = 4, anyRetriable = false }: OffsetReadOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      const expected = askAgain(err);
      if (!expected && !(anyRetriable && (err as { retriable?: boolean }).retriable)) throw err;
      if (attempt >= attempts)
        throw expected ? new DependencyUnavailableError('events', { cause: err }) : err;
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => {});
    }
  }
}

/** Where each partition of `topic` starts and ends (`admin.fetchTopicOffsets`, asked again as above). */
export function fetchTopicOffsets(
  admin: Admin,
  topic: string,
  options: OffsetReadOptions = {},
): Promise<TopicOffsets> {
  return readOffsets(admin, topic, () => admin.fetchTopicOffsets(topic), options);
}

/** Each partition's first offset at or after `timestamp` (`admin.fetchTopicOffsetsByTimestamp`, asked again as above). */
export function fetchTopicOffsetsByTimestamp(
  admin: Admin,
  topic: string,
  timestamp: number,
  options: OffsetReadOptions = {},
): Promise<{ partition: number; offset: string }[]> {
  return readOffsets(admin, topic, () => admin.fetchTopicOffsetsByTimestamp(topic, timestamp), options);
}
