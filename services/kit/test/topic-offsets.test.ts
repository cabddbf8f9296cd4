import type { Admin } from 'kafkajs';
import { DependencyUnavailableError } from '../src/http/unavailable';
import { fetchTopicOffsets, fetchTopicOffsetsByTimestamp } from '../src/messaging/topic-offsets';

/** kafkajs' own failure when its metadata names no partition leaders yet (just after an outage). */
const noPartitions = () =>
  new TypeError("Cannot destructure property 'partitions' of 'high.pop(...)' as it is undefined.");

/** kafkajs' refusal while a partition's leadership is still moving (just after a topic is created). */
const notLeader = () =>
  Object.assign(new Error('This server is not the leader for that topic-partition'), {
    name: 'KafkaJSProtocolError',
    type: 'NOT_LEADER_FOR_PARTITION',
    retriable: true,
  });

/** A fake admin answering each read with the next of `answers`, counting metadata refreshes. */
function admin(answers: (Error | 'ends')[]) {
  let refreshes = 0;
  const next = () => {
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked more often than the test expected');
    if (answer instanceof Error) throw answer;
  };
  const fake = {
    fetchTopicOffsets: async () => {
      next();
      return [{ partition: 0, offset: '7', high: '7', low: '0' }];
    },
    fetchTopicOffsetsByTimestamp: async () => {
      next();
      return [{ partition: 0, offset: '3' }];
    },
    fetchTopicMetadata: async () => {
      refreshes += 1;
      return { topics: [] };
    },
  } as unknown as Admin;
  return { fake, refreshes: () => refreshes };
}

describe('fetchTopicOffsets (where a topic ends, just after Kafka is back)', () => {
  it('refreshes the metadata and asks again when kafkajs answers without partitions', async () => {
    const kafka = admin([noPartitions(), noPartitions(), 'ends']);
    expect(await fetchTopicOffsets(kafka.fake, 't')).toEqual([
      { partition: 0, offset: '7', high: '7', low: '0' },
    ]);
    expect(kafka.refreshes()).toBe(2);
  });

  it('still without partitions after its attempts: Kafka is unavailable (a 503), not a crash (a 500)', async () => {
    const kafka = admin([noPartitions(), noPartitions(), noPartitions()]);
    const failure = await fetchTopicOffsets(kafka.fake, 't', { attempts: 3 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DependencyUnavailableError);
    expect(failure).toMatchObject({ status: 503, dependency: 'events' });
  });

  it("refreshes the metadata and asks again while a new partition's leader is not serving it yet", async () => {
    const ends = admin([notLeader(), 'ends']);
    expect(await fetchTopicOffsets(ends.fake, 't')).toEqual([
      { partition: 0, offset: '7', high: '7', low: '0' },
    ]);
    expect(ends.refreshes()).toBe(1);
    // Where a reader of the last minutes starts (the session readers): the same.
    const since = admin([notLeader(), notLeader(), 'ends']);
    expect(await fetchTopicOffsetsByTimestamp(since.fake, 't', Date.now() - 60_000)).toEqual([
      { partition: 0, offset: '3' },
    ]);
    expect(since.refreshes()).toBe(2);
    // Still refused after its attempts: Kafka is unavailable (a 503).
    const stuck = admin([notLeader(), notLeader()]);
    await expect(fetchTopicOffsetsByTimestamp(stuck.fake, 't', 0, { attempts: 2 })).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });

  it("asks again on kafkajs' other retriable refusals only when told (a reader joining: topicEndOffsets)", async () => {
    const timedOut = () =>
      Object.assign(new Error('The request timed out'), { name: 'KafkaJSProtocolError', retriable: true });
    const first = timedOut();
    await expect(fetchTopicOffsets(admin([first]).fake, 't')).rejects.toBe(first);
    const joining = admin([timedOut(), 'ends']);
    expect(await fetchTopicOffsets(joining.fake, 't', { anyRetriable: true })).toHaveLength(1);
    expect(joining.refreshes()).toBe(1);
    const last = timedOut();
    const stuck = admin([timedOut(), last]);
    await expect(fetchTopicOffsets(stuck.fake, 't', { attempts: 2, anyRetriable: true })).rejects.toBe(last);
  });

  it("passes kafkajs' own errors on at once (it has retried them already)", async () => {
    const refused = Object.assign(new Error('This server does not host this topic-partition'), {
      name: 'KafkaJSProtocolError',
    });
    const kafka = admin([refused]);
    await expect(fetchTopicOffsets(kafka.fake, 't')).rejects.toBe(refused);
    expect(kafka.refreshes()).toBe(0);
  });
});
