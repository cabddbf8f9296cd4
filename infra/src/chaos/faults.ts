/**
 * The faults, one at a time: each process of `npm start` killed with SIGKILL (the supervisor must
 * bring it back), and each of Kafka, Redis, SMTP (the mail catcher) and the QuickBooks emulator made
 * unavailable for the fault's duration. "Unavailable" is the server frozen with SIGSTOP and resumed
 * with SIGCONT: clients' connections hang with no answer and no refusal — the outage that needs every
 * time-box — and the server's own data survives (it has no persistence to come back from here).
 */

import { findProc, kafkaProc, type ProcMatcher, runnableProc, servedProc } from './procs';
import type { ChaosStack } from './stack';

export interface Fault {
  name: string;
  kind: 'kill' | 'outage';
  /** While the gateway is down, nothing listens on its port: refused connections are the answer. */
  refusalsAllowed: boolean;
  /** Starts the fault; for an outage, returns what ends it. */
  begin(stack: ChaosStack): Promise<() => void>;
}

function pidOf(stack: ChaosStack, what: string, match: ProcMatcher): number {
  const found = findProc(stack.startPid, match);
  if (!found) throw new Error(`no running ${what} process found below npm start (pid ${stack.startPid})`);
  return found.pid;
}

function kill(name: string, dir: string, entry: 'main' | 'worker'): Fault {
  return {
    name: `kill ${name}`,
    kind: 'kill',
    refusalsAllowed: name === 'gateway',
    begin: async (stack) => {
      process.kill(pidOf(stack, name, runnableProc(dir, entry)), 'SIGKILL');
      return () => undefined;
    },
  };
}

function outage(name: string, pid: (stack: ChaosStack) => number): Fault {
  return {
    name: `${name} down`,
    kind: 'outage',
    refusalsAllowed: false,
    begin: async (stack) => {
      const frozen = pid(stack);
      process.kill(frozen, 'SIGSTOP');
      return () => {
        try {
          process.kill(frozen, 'SIGCONT');
        } catch {
          // gone: the stop that follows finds nothing to resume
        }
      };
    },
  };
}

/** Every fault, in the order a full run takes them. */
export function allFaults(stack: Pick<ChaosStack, 'processes'>): Fault[] {
  return [
    ...stack.processes.map((p) => kill(p.name, p.dir, p.entry)),
    outage('kafka', (s) => pidOf(s, 'kafka', kafkaProc)),
    outage('redis', (s) => s.redis.pid),
    outage('smtp', (s) => pidOf(s, 'mail catcher', servedProc('mail'))),
    outage('qbo', (s) => pidOf(s, 'QuickBooks emulator', servedProc('qbo'))),
  ];
}

/** `--short` (and the CI test): one kill and the outages whose loss the suite is about. */
export const SHORT_FAULTS = ['kill order', 'redis down', 'smtp down', 'qbo down'];

/** The faults named (`kill order`, `kill-order`, `redis` … all accepted), in the order given. */
export function pickFaults(all: Fault[], names: string[]): Fault[] {
  const norm = (n: string) =>
    n
      .toLowerCase()
      .replace(/[-_ ]+/g, ' ')
      .trim();
  return names.map((n) => {
    const want = norm(n);
    const found = all.find((f) => norm(f.name) === want || norm(f.name) === `${want} down`);
    if (!found) throw new Error(`no fault named '${n}'; faults: ${all.map((f) => f.name).join(', ')}`);
    return found;
  });
}
