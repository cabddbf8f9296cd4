/** `npm start`'s restarts: the policy as a pure function, and real children killed and crashing. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterCrash, describePolicy, type RestartPolicy, superviseProcess } from '../src/restart';

const policy: RestartPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 8_000,
  maxCrashes: 5,
  windowMs: 60_000,
  stableAfterMs: 30_000,
};

describe('afterCrash', () => {
  test('waits 1 s, 2 s, 4 s, 8 s (capped) for crashes in a row, and gives up at the fifth', () => {
    let crashes: number[] = [];
    const waits: number[] = [];
    for (let now = 1_000; ; now += 1_000) {
      const decision = afterCrash(crashes, now - 500, now, policy);
      crashes = decision.crashes;
      if (!decision.restart) break;
      waits.push(decision.delayMs);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(crashes).toHaveLength(5);
    expect(afterCrash([0, 1, 2, 3, 4, 5, 6], 100, 200, { ...policy, maxCrashes: 20 })).toMatchObject({
      restart: true,
      delayMs: 8_000,
    });
  });

  test('a run that stayed up long enough forgets the crashes before it', () => {
    const earlier = [1_000, 2_000, 3_000, 4_000];
    expect(afterCrash(earlier, 5_000, 5_000 + 29_999, policy).restart).toBe(false);
    expect(afterCrash(earlier, 5_000, 5_000 + 30_000, policy)).toEqual({
      restart: true,
      delayMs: 1_000,
      crashes: [35_000],
    });
  });

  test('crashes older than the window no longer count', () => {
    expect(afterCrash([0, 10_000, 20_000, 70_000], 70_500, 71_000, policy)).toEqual({
      restart: true,
      delayMs: 4_000,
      crashes: [20_000, 70_000, 71_000],
    });
  });

  test('the banner states the policy', () => {
    expect(describePolicy(policy)).toBe(
      'a process that dies is restarted (after 1 s, 2 s, 4 s … up to 8 s), and given up on after 5 crashes within 1 min',
    );
  });
});

describe('superviseProcess', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'decor-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fast: RestartPolicy = { ...policy, firstDelayMs: 100, maxDelayMs: 400, maxCrashes: 3 };

  test('a child killed with SIGKILL is started again and answers again', async () => {
    const lines: string[] = [];
    const starts = path.join(dir, 'starts');
    writeFileSync(starts, '');
    const supervised = await superviseProcess(
      {
        name: 'steady',
        command: process.execPath,
        args: [
          '-e',
          `require("node:fs").appendFileSync(${JSON.stringify(starts)}, process.pid + "\\n");
           console.log("ready"); setInterval(() => {}, 1000)`,
        ],
        ready: /^ready$/,
        log: () => {},
      },
      { policy: fast, announce: (l) => lines.push(l) },
    );
    const first = supervised.current.pid;
    process.kill(first, 'SIGKILL');
    const deadline = Date.now() + 10_000;
    while (supervised.restarts === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(supervised.restarts).toBe(1);
    expect(supervised.current.pid).not.toBe(first);
    expect(readFileSync(starts, 'utf8').trim().split('\n')).toEqual([
      String(first),
      String(supervised.current.pid),
    ]);
    expect(lines).toEqual([
      `✗ steady was killed by SIGKILL: restarting it in 0.1 s (crash 1; given up at 3 within 1 min)`,
      expect.stringMatching(
        new RegExp(`^↻ steady restarted \\(pid ${supervised.current.pid}\\) in [\\d.]+ s$`),
      ),
    ]);
    await supervised.stop();
    expect(await supervised.current.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(supervised.gone).toBe(false);
  });

  test('a child that keeps crashing is given up on, with a line saying so', async () => {
    const lines: string[] = [];
    const crashed: string[][] = [];
    const supervised = await superviseProcess(
      {
        name: 'flaky',
        command: process.execPath,
        args: [
          '-e',
          'console.log("ready"); setTimeout(() => { console.error("boom"); process.exit(3) }, 50)',
        ],
        ready: /^ready$/,
        log: () => {},
      },
      { policy: fast, announce: (l) => lines.push(l), onCrash: (run) => crashed.push(run.lastLines()) },
    );
    await supervised.gaveUp;
    expect(supervised.gone).toBe(true);
    expect(supervised.restarts).toBe(2);
    expect(crashed).toEqual([
      ['ready', 'boom'],
      ['ready', 'boom'],
      ['ready', 'boom'],
    ]);
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
      '✗ flaky exited with code 3: restarting it in 0.1 s (crash 1; given up at 3 within 1 min)',
      '✗ flaky exited with code 3: restarting it in 0.2 s (crash 2; given up at 3 within 1 min)',
      '✗ flaky exited with code 3 — 3 crashes within 1 min: giving up, not restarting it again (the other processes keep running; see its log, then Ctrl-C and `npm start`)',
    ]);
    await supervised.stop();
  });

  test('an exit while everything is being stopped is no crash', async () => {
    const lines: string[] = [];
    let stopping = false;
    const supervised = await superviseProcess(
      {
        name: 'calm',
        command: process.execPath,
        args: ['-e', 'console.log("ready"); setInterval(() => {}, 1000)'],
        ready: /^ready$/,
        log: () => {},
      },
      { policy: fast, announce: (l) => lines.push(l), stopping: () => stopping },
    );
    stopping = true;
    supervised.current.stop();
    await supervised.current.exited;
    await new Promise((r) => setTimeout(r, 300));
    expect(lines).toEqual([]);
    expect(supervised.restarts).toBe(0);
  });
});
