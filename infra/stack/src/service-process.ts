/**
 * A service of a test file run as a real OS process, from its own src/main.ts through tsx on the
 * same Node as jest, so a test can SIGKILL it: nothing of the dying process (no shutdown hook, no
 * in-memory buffer) can help the next one.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess } from './process';

const REPO_ROOT = path.resolve(__dirname, '../../..'); // infra/stack/src → the repository

export interface ServiceProcess {
  name: string;
  pid: number;
  /** http://127.0.0.1:PORT of the process (PORT from its env). */
  url: string;
  /** Resolves once /readyz answers 200 (Mongo, Kafka, Redis connected); rejects if the process dies first. */
  ready(timeoutMs?: number): Promise<void>;
  /** kill -9, then waits until the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown), SIGKILL after 10 s; resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * Spawns `entry` (repo-relative, e.g. 'services/user/src/main.ts') with `env` (e.g. from
 * `serviceEnv`) and returns at once: call `ready()` to wait for it, or act while it starts.
 */
export async function spawnService(
  name: string,
  entry: string,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  if (!env.PORT) throw new Error(`spawnService(${name}): env needs a PORT`);
  const url = `http://127.0.0.1:${env.PORT}`;
  const child = await startProcess({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', '--disable-warning=TimeoutNegativeWarning', path.join(REPO_ROOT, entry)],
    cwd: REPO_ROOT,
    env,
    quiet: true, // output is kept for the error message below
  });
  let gone = false;
  void child.exited.then(() => {
    gone = true;
  });
  return {
    name,
    pid: child.pid,
    url,
    ready: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (gone) throw new Error(`${name} exited before it was ready:\n${child.lastLines().join('\n')}`);
        const status = await fetch(`${url}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return;
        await sleep(100);
      }
      throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${child.lastLines().join('\n')}`);
    },
    kill9: async () => {
      try {
        if (!gone) process.kill(child.pid, 'SIGKILL');
      } catch {
        // it died on its own in between
      }
      await child.exited;
    },
    stop: () => child.stop(),
  };
}

/** `spawnService` and wait until it is ready (stopping it if it never gets there). */
export async function startServiceProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const proc = await spawnService(name, entry, env);
  try {
    await proc.ready();
  } catch (err) {
    await proc.kill9();
    throw err;
  }
  return proc;
}
