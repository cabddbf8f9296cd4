import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withFileLock } from '../src/file-lock';

/** The frontends' build lock: `npm start` and browser test files building on one checkout take turns. */
describe('withFileLock', () => {
  let dir: string;
  let lock: string;
  let other: ChildProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-lock-'));
    lock = path.join(dir, '.build-lock');
  });
  afterEach(() => {
    other?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('runs one holder at a time, names it in the file, and releases it after a failure too', async () => {
    const steps: string[] = [];
    const holder = (name: string) => async () => {
      steps.push(`${name} in (${readFileSync(lock, 'utf8')})`);
      await pause(100);
      steps.push(`${name} out`);
      if (name === 'b') throw new Error('the build failed');
      return name;
    };
    const results = await Promise.allSettled([
      withFileLock(lock, holder('a'), 20),
      withFileLock(lock, holder('b'), 20),
      withFileLock(lock, holder('c'), 20),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'a',
      'the build failed',
      'c',
    ]);
    // Never two inside at once; each named this process.
    expect(steps.filter((_, i) => i % 2 === 0).every((s) => s.endsWith(`(${process.pid})`))).toBe(true);
    expect(steps.map((s) => s.split(' ').slice(0, 2).join(' '))).toEqual(
      expect.arrayContaining(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']),
    );
    for (let i = 0; i < steps.length; i += 2) expect(steps[i + 1]).toBe(`${steps[i]?.split(' ')[0]} out`);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits while another running process holds it, and goes on once that one releases it', async () => {
    other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    writeFileSync(lock, String(other.pid));
    let ran = false;
    const waiting = withFileLock(lock, async () => (ran = true), 20);
    await pause(300);
    expect(ran).toBe(false);
    rmSync(lock);
    await waiting;
    expect(ran).toBe(true);
  });

  it('takes a lock left by a process that no longer runs (a killed run)', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => gone.once('exit', r));
    writeFileSync(lock, String(gone.pid));
    expect(await withFileLock(lock, async () => readFileSync(lock, 'utf8'), 20)).toBe(String(process.pid));
  });
});
