import type { Admin } from 'kafkajs';
import { DependencyUnavailableError } from '../http/unavailable';

export type TopicOffsets = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

/**
 * `admin.fetchTopicOffsets`, safe just after Kafka comes back. While the admin's metadata still
 * names no partition leaders (seen right after an outage), kafkajs asks no broker and then fails
 * with a bare TypeError ("Cannot destructure property 'partitions' of 'high.pop(...)'") that it
 * does not retry — a request would answer 500. Here that answer refreshes the metadata and asks
 * again, a few times; still without partitions, it is Kafka being unavailable (a 503).
 */
export async function fetchTopicOffsets(admin: Admin, topic: string, attempts = 4): Promise<TopicOffsets> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      if (attempt >= attempts) throw new DependencyUnavailableError('events', { cause: err });
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => {});
    }
  }
}
