/**
 * The processes of a running `npm start`, found in /proc below its start.ts process (the supervisor
 * restarts a killed one under a new pid, so each fault looks its target up again).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  state: string;
  argv: string[];
  cwd: string;
  /** Clock ticks after boot: with the pid, tells a process from a later one that reuses the pid. */
  startTime: string;
}

/** One process as /proc shows it, or undefined once it is gone. */
export function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // gone meanwhile, or not ours to read
    }
    return { pid, ppid: Number(fields[1]), state: fields[0] ?? '', argv, cwd, startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** Every live (not zombie) process below `root`. */
export function descendants(root: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => readProc(Number(d)) ?? []);
  const found: Proc[] = [];
  let parents = new Set([root]);
  while (parents.size > 0) {
    const children = all.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((c) => c.pid));
  }
  return found.filter((p) => p.state !== 'Z');
}

/** How a process of the product or of its infrastructure is recognised among them. */
export type ProcMatcher = (p: Proc) => boolean;

/** A service's or the gateway's process (`dist/main.js`) or a worker (`dist/worker.js`) run in `dir`. */
export const runnableProc =
  (dir: string, entry: 'main' | 'worker'): ProcMatcher =>
  (p) =>
    p.cwd.endsWith(`/${dir}`) && p.argv.includes(`dist/${entry}.js`);

export const kafkaProc: ProcMatcher = (p) => p.argv.includes('kafka.Kafka');

/** The mail catcher and the QuickBooks emulator run as `node … serve.ts <kind> <options>`. */
export const servedProc =
  (kind: 'mail' | 'qbo' | 's3'): ProcMatcher =>
  (p) => {
    const i = p.argv.findIndex((a) => a.endsWith('serve.ts'));
    return i >= 0 && p.argv[i + 1] === kind;
  };

export function findProc(root: number, match: ProcMatcher): Proc | undefined {
  return descendants(root).find(match);
}

/** One instance of a runnable: the one listening on `port` (its PORT, or WORKER_PORT for a worker). */
export const instanceProc =
  (dir: string, entry: 'main' | 'worker', port: number): ProcMatcher =>
  (p) => {
    if (!runnableProc(dir, entry)(p)) return false;
    try {
      const environ = readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0');
      return environ.includes(`${entry === 'worker' ? 'WORKER_PORT' : 'PORT'}=${port}`);
    } catch {
      return false; // gone meanwhile
    }
  };
