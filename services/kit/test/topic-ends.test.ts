import type { Admin } from 'kafkajs';
import type { Connection } from 'mongoose';
import { topicEnds, waitForCatchUp } from '../src/messaging/catch-up';
import { progressId } from '../src/messaging/consumer';

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

/** A fake connection whose progress documents the test sets, counting the reads of them. */
function fakeProgress() {
  const offsets = new Map<string, number>();
  let reads = 0;
  let failWith: Error | undefined;
  const connection = {
    collection: () => ({
      find: (filter: { _id: { $in: string[] } }) => ({
        toArray: async () => {
          reads += 1;
          await new Promise((r) => setTimeout(r, 2));
          if (failWith) throw failWith;
          return filter._id.$in.flatMap((id) => {
            const offset = offsets.get(id);
            return offset === undefined ? [] : [{ _id: id, offset }];
          });
        },
      }),
    }),
  } as unknown as Connection;
  return {
    connection,
    reads: () => reads,
    handled: (offset: number) => offsets.set(progressId('g', 't', 0), offset),
    fail: (err: Error) => {
      failWith = err;
    },
  };
}

/** An admin whose topic 't' has one partition ending after offset `last`. */
const endsAt = (last: number) =>
  ({
    fetchTopicOffsets: async () => [{ partition: 0, offset: '', high: String(last + 1), low: '0' }],
  }) as unknown as Admin;

describe('waitForCatchUp (shared reads of consumer progress)', () => {
  it('a burst of waiters shares the reads of the progress, and each learns when its consumer is there', async () => {
    const progress = fakeProgress();
    progress.handled(3);
    const burst = Array.from({ length: 200 }, () =>
      waitForCatchUp({
        admin: endsAt(5),
        connection: progress.connection,
        groupId: 'g',
        topic: 't',
        pollMs: 5,
      }),
    );
    // Until it has polled again while behind: on a loaded machine 30 ms may hold a single read.
    const deadline = Date.now() + 5_000;
    while (progress.reads() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const whileBehind = progress.reads();
    // Each read answers every waiter: a handful of reads, not one per waiter and poll.
    expect(whileBehind).toBeGreaterThan(1);
    expect(whileBehind).toBeLessThan(20);
    progress.handled(5);
    expect(new Set(await Promise.all(burst))).toEqual(new Set([true]));
    expect(progress.reads()).toBeLessThan(30);
  });

  it('a waiter already there answers after one read; one never there answers false at its deadline', async () => {
    const progress = fakeProgress();
    progress.handled(7);
    const opts = { connection: progress.connection, groupId: 'g', topic: 't', pollMs: 5 };
    await expect(waitForCatchUp({ ...opts, admin: endsAt(7) })).resolves.toBe(true);
    expect(progress.reads()).toBe(1);
    const started = Date.now();
    const [late, current] = await Promise.all([
      waitForCatchUp({ ...opts, admin: endsAt(9), timeoutMs: 60 }),
      waitForCatchUp({ ...opts, admin: endsAt(6) }),
    ]);
    expect([late, current]).toEqual([false, true]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('a failed read fails every waiter', async () => {
    const progress = fakeProgress();
    progress.fail(new Error('mongo away'));
    const opts = { connection: progress.connection, groupId: 'g', topic: 't', admin: endsAt(2) };
    const waits = [waitForCatchUp(opts), waitForCatchUp(opts)];
    for (const wait of waits) await expect(wait).rejects.toThrow('mongo away');
  });
});
