/**
 * Keeps a child running: one that dies after start-up is started again after a wait that doubles
 * with each crash in a row, and given up on (with a line saying so) after too many crashes within
 * a window; a run that stayed up long enough forgets the crashes before it.
 */
import { type ProcessSpec, type RunningProcess, startProcess } from './process';

export interface RestartPolicy {
  /** The wait before the first restart; doubled for each further crash in a row. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** The crash that makes this many within `windowMs` is not restarted. */
  maxCrashes: number;
  windowMs: number;
  /** A run that lasted this long has recovered: the crashes before it no longer count. */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxCrashes: 5,
  windowMs: 5 * 60_000,
  stableAfterMs: 60_000,
};

export type RestartDecision =
  | { restart: true; delayMs: number; crashes: number[] }
  | { restart: false; crashes: number[] };

/**
 * What to do about a crash at `now` of a run started at `startedAt`, given the times of the
 * crashes before it (`crashes`, as returned by the previous decision).
 */
export function afterCrash(
  crashes: readonly number[],
  startedAt: number,
  now: number,
  policy: RestartPolicy = DEFAULT_RESTART_POLICY,
): RestartDecision {
  const earlier =
    now - startedAt >= policy.stableAfterMs ? [] : crashes.filter((t) => now - t < policy.windowMs);
  const all = [...earlier, now];
  if (all.length >= policy.maxCrashes) return { restart: false, crashes: all };
  const delayMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (all.length - 1));
  return { restart: true, delayMs, crashes: all };
}

const duration = (ms: number) =>
  ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Number((ms / 1000).toFixed(1))} s`;

/** The policy in words, for the start-up banner. */
export function describePolicy(policy: RestartPolicy = DEFAULT_RESTART_POLICY): string {
  const waits = [0, 1, 2].map((n) => duration(Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** n)));
  return `a process that dies is restarted (after ${waits.join(', ')} … up to ${duration(policy.maxDelayMs)}), and given up on after ${policy.maxCrashes} crashes within ${duration(policy.windowMs)}`;
}

export interface SupervisedProcess {
  readonly name: string;
  /** The current run (a new one after each restart). */
  readonly current: RunningProcess;
  /** True once given up on: no run is left. */
  readonly gone: boolean;
  readonly restarts: number;
  /** Resolves when the process has been given up on. */
  readonly gaveUp: Promise<void>;
  /** No more restarts; stops the current run (or a restart under way) and resolves once it is gone. */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  policy?: RestartPolicy;
  /** Status lines (crash, restart, give-up). */
  announce: (line: string) => void;
  /** Called with the run that died, before the crash line (e.g. to show its last output). */
  onCrash?: (run: RunningProcess, how: string) => void;
  /** True while the whole product is being stopped: an exit then is no crash. */
  stopping?: () => boolean;
}

/** Starts `spec` (throwing as startProcess does) and restarts it whenever it dies. */
export async function superviseProcess(
  spec: ProcessSpec,
  opts: SuperviseOptions,
): Promise<SupervisedProcess> {
  const policy = opts.policy ?? DEFAULT_RESTART_POLICY;
  let current = await startProcess(spec);
  let startedAt = Date.now();
  let crashes: number[] = [];
  let restarts = 0;
  let stopped = false;
  let gone = false;
  let wake: (() => void) | undefined;
  let restarting: Promise<void> | undefined;
  let markGaveUp = () => {};
  const gaveUp = new Promise<void>((resolve) => {
    markGaveUp = resolve;
  });

  const giveUp = (how: string, count: number) => {
    gone = true;
    opts.announce(
      `✗ ${spec.name} ${how} — ${count} crashes within ${duration(policy.windowMs)}: giving up, not restarting it again (the other processes keep running; see its log, then Ctrl-C and \`npm start\`)`,
    );
    markGaveUp();
  };

  /** Restarts after each crash until a run stays up, the policy gives up, or stop() is called. */
  const onExit = async (run: RunningProcess, how: string) => {
    let decision = afterCrash(crashes, startedAt, Date.now(), policy);
    opts.onCrash?.(run, how);
    for (;;) {
      crashes = decision.crashes;
      if (!decision.restart) return giveUp(how, crashes.length);
      const { delayMs } = decision;
      opts.announce(
        `✗ ${spec.name} ${how}: restarting it in ${duration(delayMs)} (crash ${crashes.length}; given up at ${policy.maxCrashes} within ${duration(policy.windowMs)})`,
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      if (stopped) return;
      const t = Date.now();
      try {
        current = await startProcess(spec);
        startedAt = Date.now();
        restarts++;
        opts.announce(`↻ ${spec.name} restarted (pid ${current.pid}) in ${duration(Date.now() - t)}`);
        watch(current);
        return;
      } catch (err) {
        if (stopped) return;
        how = `did not start again (${(err as Error).message.split('\n')[0]})`;
        decision = afterCrash(crashes, t, Date.now(), policy);
      }
    }
  };

  const watch = (run: RunningProcess) => {
    void run.exited.then(({ code, signal }) => {
      if (stopped || opts.stopping?.()) return;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      restarting = onExit(run, how);
    });
  };
  watch(current);

  return {
    name: spec.name,
    get current() {
      return current;
    },
    get gone() {
      return gone;
    },
    get restarts() {
      return restarts;
    },
    gaveUp,
    async stop() {
      stopped = true;
      wake?.();
      await restarting;
      await current.stop();
    },
  };
}
