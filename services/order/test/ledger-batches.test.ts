import { KeyedBatches } from '../src/store/ledger-batches';

describe('KeyedBatches (group commit per key)', () => {
  it('gives what arrives during a write to the next write, in order, per key', async () => {
    const calls: [string, number[]][] = [];
    let release: () => void = () => {};
    const batches = new KeyedBatches<number, number>(async (key, items) => {
      calls.push([key, items]);
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((n) => n * 10);
    });
    const first = batches.add('a', 1);
    const more = [batches.add('a', 2), batches.add('a', 3), batches.add('b', 4)];
    release();
    expect(await Promise.all([first, ...more])).toEqual([10, 20, 30, 40]);
    expect(calls).toEqual([
      ['a', [1]],
      ['b', [4]],
      ['a', [2, 3]],
    ]);
  });

  it('fails every change of a failed write, and the next ones go on', async () => {
    let fail = true;
    const batches = new KeyedBatches<number, number>(async (_key, items) => {
      if (fail) {
        fail = false;
        throw new Error('ledger unavailable');
      }
      return items;
    });
    await expect(batches.add('a', 1)).rejects.toThrow('ledger unavailable');
    expect(await batches.add('a', 2)).toBe(2);
  });
});
