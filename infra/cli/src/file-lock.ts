import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Runs `work` while holding `file` as a lock between processes of this machine (and calls of this
 * one): the file names its holder's pid; a holder that no longer runs (a killed run) does not hold it.
 * Waiters look again every `pollMs`.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>, pollMs = 500): Promise<T> {
  await takeLock(file, pollMs);
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

async function takeLock(file: string, pollMs: number): Promise<void> {
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readIfThere(file));
    if (holder && !isRunning(holder)) rmSync(file, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // released meanwhile
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
