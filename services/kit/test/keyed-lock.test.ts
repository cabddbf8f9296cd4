import { KeyedLock } from '../src/mongo/keyed-lock';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('KeyedLock', () => {
  it('runs tasks of one key one at a time, in order, and tasks of other keys alongside', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      lock.run('a', task('a1')),
      lock.run('a', task('a2')),
      lock.run('b', task('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    await tick();
    expect(lock.size).toBe(0);
  });

  it('goes on with the next task after one fails, and hands the failure to its caller', async () => {
    const lock = new KeyedLock();
    const failed = lock.run('a', async () => {
      throw new Error('boom');
    });
    const next = lock.run('a', async () => 'after');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });
});
