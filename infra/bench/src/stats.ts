import { readdirSync, readFileSync } from 'node:fs';

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Linux clock ticks per second for /proc/<pid>/stat times (USER_HZ is 100 on every mainstream arch). */
const TICKS_PER_SECOND = 100;

function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return undefined;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * The processes that share the machine's cores during a measurement, by role: this process (the
 * load generator), the services we started, the infrastructure JVMs it started and the machine's
 * Redis. Found once; a pid that goes away just stops counting.
 */
export function processRoles(services: Record<string, number>): Record<string, number> {
  const roles: Record<string, number> = { bench: process.pid, ...services };
  const known = new Set(Object.values(roles));
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || known.has(pid)) continue;
    const command = commandOf(pid);
    if (parentOf(pid) === process.pid && command.includes('kafka.Kafka')) roles.kafka = pid;
    else if (parentOf(pid) === process.pid && /mongo|Launcher/.test(command)) roles.mongo = pid;
    else if (/^\S*redis-server\b/.test(command) && roles.redis === undefined) roles.redis = pid;
  }
  return roles;
}

/** Busy ticks of the whole machine (all cores) from the first line of /proc/stat. */
function machineBusyTicks(): number | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return user + nice + system + irq + softirq + steal;
  } catch {
    return undefined;
  }
}

/**
 * Starts a CPU meter over `roles`; the returned function gives the cores each used since (1.0 = one
 * full core), plus `others`: what the rest of the machine used meanwhile (other jobs on a shared host).
 */
export function cpuMeter(roles: Record<string, number>): () => Record<string, number> {
  const started = Date.now();
  const machineBefore = machineBusyTicks();
  const before = Object.fromEntries(Object.entries(roles).map(([role, pid]) => [role, cpuTicks(pid)]));
  return () => {
    const seconds = (Date.now() - started) / 1000;
    const used: Record<string, number> = {};
    for (const [role, pid] of Object.entries(roles)) {
      const a = before[role];
      const b = cpuTicks(pid);
      if (a !== undefined && b !== undefined) used[role] = (b - a) / TICKS_PER_SECOND / seconds;
    }
    const machineAfter = machineBusyTicks();
    if (machineBefore !== undefined && machineAfter !== undefined) {
      const ours = Object.values(used).reduce((sum, cores) => sum + cores, 0);
      used.others = Math.max(0, (machineAfter - machineBefore) / TICKS_PER_SECOND / seconds - ours);
    }
    return used;
  };
}

/** "user 0.93, gateway 0.61, …" — highest first, idle ones left out. */
export function formatCores(used: Record<string, number>): string {
  return Object.entries(used)
    .filter(([, cores]) => cores >= 0.02)
    .sort((a, b) => b[1] - a[1])
    .map(([role, cores]) => `${role} ${cores.toFixed(2)}`)
    .join(', ');
}
