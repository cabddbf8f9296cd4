/**
 * The faults, one at a time: each process of `npm start` killed with SIGKILL (the supervisor must
 * bring it back), and each of Kafka, Redis, SMTP (the mail catcher) and the QuickBooks emulator made
 * unavailable for the fault's duration. Kafka, Redis and QuickBooks are frozen with SIGSTOP and
 * resumed with SIGCONT: clients' connections hang with no answer and no refusal — the outage that
 * needs every time-box — and the server keeps its data (this Redis has no persistence). The mail
 * catcher is killed and started again afterwards (same command, directory and environment; its
 * inbox is kept in a file): SMTP refuses connections, so each send fails at once — frozen, each
 * attempt would hang 10 s and a few attempts would outlast a minute, hiding the loss after ~31 s.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { findProc, kafkaProc, type Proc, type ProcMatcher, runnableProc, servedProc } from '@decor/cli/procs';
import { canConnect } from '@decor/stack';
import type { NpmStartStack } from '../npm-start';
import { killOrderDuringAcceptances } from './acceptances';
import { restartAllReplayEndedSession } from './replay';

export interface Fault {
  name: string;
  kind: 'kill' | 'outage';
  /** While the gateway is down, nothing listens on its port: refused connections are the answer. */
  refusalsAllowed: boolean;
  /**
   * Starts the fault; returns what ends it (nothing, for a kill: the supervisor restarts). The end
   * throwing fails the fault's row with its message (a check the fault makes itself).
   */
  begin(stack: NpmStartStack): Promise<() => Promise<void>>;
  /** What the fault saw, for the run's log (once it ended). */
  summary?(): string | undefined;
  /** What it needs in place before the load starts (its own customers, estimates…). */
  prepare?(stack: NpmStartStack, log: (line: string) => void): Promise<void>;
}

function procOf(stack: NpmStartStack, what: string, match: ProcMatcher): Proc {
  // A server started again by an earlier fault is the suite's own child, no longer below npm start.
  const found = findProc(stack.startPid, match) ?? findProc(process.pid, match);
  if (!found) throw new Error(`no running ${what} process found below npm start (pid ${stack.startPid})`);
  return found;
}

const pidOf = (stack: NpmStartStack, what: string, match: ProcMatcher) => procOf(stack, what, match).pid;

function kill(name: string, dir: string, entry: 'main' | 'worker'): Fault {
  return {
    name: `kill ${name}`,
    kind: 'kill',
    refusalsAllowed: name === 'gateway',
    begin: async (stack) => {
      process.kill(pidOf(stack, name, runnableProc(dir, entry)), 'SIGKILL');
      return async () => undefined;
    },
  };
}

function outage(name: string, pid: (stack: NpmStartStack) => number): Fault {
  return {
    name: `${name} down`,
    kind: 'outage',
    refusalsAllowed: false,
    begin: async (stack) => {
      const frozen = pid(stack);
      process.kill(frozen, 'SIGSTOP');
      return async () => {
        try {
          process.kill(frozen, 'SIGCONT');
        } catch {
          // gone: the stop that follows finds nothing to resume
        }
      };
    },
  };
}

/** Killed, then started again as it was (the stack stops that copy at the end). */
function killAndRelaunch(
  name: string,
  what: string,
  match: ProcMatcher,
  port: (argv: string[]) => number,
): Fault {
  return {
    name: `${name} down`,
    kind: 'outage',
    refusalsAllowed: false,
    begin: async (stack) => {
      const p = procOf(stack, what, match);
      const environ = readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').filter(Boolean);
      const env = Object.fromEntries(
        environ.map((kv: string) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      process.kill(p.pid, 'SIGKILL');
      return async () => {
        const [command, ...args] = p.argv as [string, ...string[]];
        const child = spawn(command, args, { cwd: p.cwd, env, stdio: 'ignore' });
        stack.adopt(child);
        for (let i = 0; i < 300 && !(await canConnect(port(p.argv))); i++) await sleep(100);
      };
    },
  };
}

/** The mail catcher's SMTP port, from its options on the command line. */
const smtpPortOf = (argv: string[]) =>
  Number((JSON.parse(argv[argv.length - 1] ?? '{}') as { smtpPort?: number }).smtpPort);

/** Every fault, in the order a full run takes them. */
export function allFaults(stack: Pick<NpmStartStack, 'processes'>): Fault[] {
  return [
    ...stack.processes.map((p) => kill(p.name, p.dir, p.entry)),
    outage('kafka', (s) => pidOf(s, 'kafka', kafkaProc)),
    outage('redis', (s) => s.redis.pid),
    killAndRelaunch('smtp', 'mail catcher', servedProc('mail'), smtpPortOf),
    outage('qbo', (s) => pidOf(s, 'QuickBooks emulator', servedProc('qbo'))),
    restartAllReplayEndedSession(),
    killOrderDuringAcceptances(),
  ];
}

/**
 * `--short` (and the CI test): one kill, the outages whose loss the suite is about, and every process
 * restarted at once with an ended session's token replayed (issue 28).
 */
export const SHORT_FAULTS = [
  'kill order',
  'redis down',
  'smtp down',
  'qbo down',
  'restart all, replay ended session',
];

/** The faults named (`kill order`, `kill-order`, `redis` … all accepted), in the order given. */
export function pickFaults(all: Fault[], names: string[]): Fault[] {
  const norm = (n: string) =>
    n
      .toLowerCase()
      .replace(/[-_ ]+/g, ' ')
      .trim();
  return names.map((n) => {
    const want = norm(n);
    const found = all.find(
      (f) => norm(f.name) === want || norm(f.name) === `${want} down` || norm(f.name).startsWith(`${want},`),
    );
    if (!found) throw new Error(`no fault named '${n}'; faults: ${all.map((f) => f.name).join(', ')}`);
    return found;
  });
}
