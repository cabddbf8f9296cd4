import path from 'node:path';
import { eventually } from '@decor/kit/testing';
import { type RunningProcess, startProcess } from '@decor/stack';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * Starts `entry` (e.g. gateway/src/main.ts) as its own process, its output in `logFile`, and waits
 * until `readyUrl` answers 2xx. A separate process, not an app in the test's own: timings at the
 * socket (a reset while a client writes) and the access log written to stdout are the real ones.
 */
export async function spawnProcess(opts: {
  name: string;
  entry: string;
  env: Record<string, string | undefined>;
  readyUrl: string;
  logFile: string;
}): Promise<RunningProcess> {
  const child = await startProcess({
    name: opts.name,
    command: process.execPath,
    args: ['--import', 'tsx', '--disable-warning=TimeoutNegativeWarning', path.join(ROOT, opts.entry)],
    cwd: ROOT,
    env: opts.env,
    logFile: opts.logFile,
    quiet: true,
  });
  try {
    await eventually(
      async () => ((await fetch(opts.readyUrl).catch(() => undefined))?.ok ? true : undefined),
      120_000,
      `${opts.name} ready`,
    );
  } catch (err) {
    await child.stop();
    throw err;
  }
  return child;
}
