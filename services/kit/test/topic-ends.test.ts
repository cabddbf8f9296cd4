import type { Admin } from 'kafkajs';
import { topicEnds } from '../src/messaging/catch-up';

/** A fake admin whose reads answer when the test says, counting them. */
function fakeAdmin() {
  const pending: (() => void)[] = [];
  let reads = 0;
  const admin = {
    fetchTopicOffsets: () => {
      reads += 1;
      const n = reads;
      return new Promise((resolve) =>
        pending.push(() => resolve([{ partition: 0, offset: '', high: String(n), low: '0' }])),
      );
    },
  } as unknown as Admin;
  return { admin, reads: () => reads, answer: () => pending.shift()?.() };
}

describe('topicEnds (shared reads of where a topic ends)', () => {
  it('a burst costs two reads, and every caller gets a read that began after it arrived', async () => {
    const kafka = fakeAdmin();
    const first = topicEnds(kafka.admin, 't');
    const burst = Array.from({ length: 50 }, () => topicEnds(kafka.admin, 't'));
    expect(kafka.reads()).toBe(1);
    kafka.answer();
    expect((await first)[0]?.high).toBe('1');
    await new Promise((r) => setImmediate(r));
    expect(kafka.reads()).toBe(2); // the one queued for the burst
    kafka.answer();
    const highs = new Set((await Promise.all(burst)).map((ends) => ends[0]?.high));
    expect([...highs]).toEqual(['2']);
    // Later callers start afresh; another topic reads on its own.
    const later = topicEnds(kafka.admin, 't');
    const other = topicEnds(kafka.admin, 'u');
    expect(kafka.reads()).toBe(4);
    kafka.answer();
    kafka.answer();
    expect((await later)[0]?.high).toBe('3');
    expect((await other)[0]?.high).toBe('4');
  });
});
