import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

/** How to start one long-running child (a server, a service, a worker). */
export interface ProcessSpec {
  /** Short name used as the log prefix, e.g. 'kafka' → `[kafka] …`. */
  name: string;
  command: string;
  args?: string[];
  /** Merged over process.env. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Every output line is also appended here (unprefixed). */
  logFile?: string;
  /**
   * When the child counts as ready: a regex matched against each output line, or a probe called
   * every `probeIntervalMs` until it returns true (a throw counts as "not yet"). Omitted: ready
   * as soon as it is spawned.
   */
  ready?: RegExp | (() => Promise<boolean>);
  readyTimeoutMs?: number;
  probeIntervalMs?: number;
  /** Time between SIGTERM and SIGKILL in stop(). */
  stopGraceMs?: number;
  /** Where prefixed output lines go; defaults to stdout. */
  log?: (line: string) => void;
  /** Keep output out of `log` (still kept for errors and the log file). */
  quiet?: boolean;
  /** A hint appended to start errors, e.g. which env var changes the port. */
  hint?: string;
  /** How to install `command` when it is not on PATH, e.g. 'apt-get install openjdk-17-jre-headless'. */
  installHint?: string;
  /**
   * Aborted while the child is not ready yet: it is stopped (as `stop()` does) and the start rejects
   * once it is gone — so a caller interrupting a start-up knows nothing it started is left running.
   */
  signal?: AbortSignal;
}

export interface RunningProcess {
  readonly name: string;
  readonly pid: number;
  /** Resolves when the child has exited, for whatever reason. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last output lines (stdout and stderr interleaved), newest last. */
  lastLines(count?: number): string[];
  /** SIGTERM, then SIGKILL after the grace period; resolves once the child is gone. */
  stop(): Promise<void>;
}

/** A child that could not start: carries its last output so the cause is visible. */
export class ProcessStartError extends Error {
  constructor(
    message: string,
    readonly processName: string,
    readonly output: string[],
  ) {
    super(
      output.length > 0 ? `${message}\n--- last output of ${processName} ---\n${output.join('\n')}` : message,
    );
    this.name = 'ProcessStartError';
  }
}

const KEEP_LINES = 200;
const COLOURS = [36, 33, 35, 32, 34, 91, 96, 93, 95, 92];

function colourFor(name: string): number {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length] ?? 36;
}

/** `[name] ` coloured when stdout is a terminal (and NO_COLOR is unset). */
export function prefixFor(name: string): string {
  const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
  return useColour ? `\x1b[${colourFor(name)}m[${name}]\x1b[0m ` : `[${name}] `;
}

/** Spawns a child and resolves once it is ready; rejects (and kills it) if it exits or times out first. */
export async function startProcess(spec: ProcessSpec): Promise<RunningProcess> {
  const log = spec.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const prefix = prefixFor(spec.name);
  const lines: string[] = [];
  let file: WriteStream | undefined;
  if (spec.logFile) {
    mkdirSync(dirname(spec.logFile), { recursive: true });
    file = createWriteStream(spec.logFile, { flags: 'a' });
  }

  let onLine: ((line: string) => void) | undefined;
  const child: ChildProcess = spawn(spec.command, spec.args ?? [], {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const handleLine = (line: string) => {
    lines.push(line);
    if (lines.length > KEEP_LINES) lines.shift();
    file?.write(`${line}\n`);
    if (!spec.quiet) log(prefix + line);
    onLine?.(line);
  };
  if (child.stdout) createInterface({ input: child.stdout }).on('line', handleLine);
  if (child.stderr) createInterface({ input: child.stderr }).on('line', handleLine);

  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // 'close' (not 'exit') so the last output lines have been read when we report them.
    child.once('close', (code, signal) => {
      file?.end();
      resolve({ code, signal });
    });
    child.once('error', () => {
      file?.end();
      resolve({ code: null, signal: null });
    });
  });

  const lastLines = (count = 30) => lines.slice(-count);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      child.kill('SIGTERM');
      const grace = spec.stopGraceMs ?? 10_000;
      let timer: NodeJS.Timeout | undefined;
      const killed = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) {
            log(`${prefix}did not stop within ${grace} ms, killing it`);
            child.kill('SIGKILL');
          }
          resolve();
        }, grace);
      });
      await Promise.race([exited, killed]);
      clearTimeout(timer);
      await exited;
    })();
    return stopping;
  };
  const running: RunningProcess = {
    name: spec.name,
    get pid() {
      return child.pid ?? -1;
    },
    exited,
    lastLines,
    stop,
  };

  const hint = spec.hint ? ` (${spec.hint})` : '';
  const timeoutMs = spec.readyTimeoutMs ?? 60_000;
  const ready = spec.ready;
  let settled = false;
  let lastProbeError = '';

  const becameReady = new Promise<void>((resolve) => {
    if (ready === undefined) {
      child.once('spawn', () => resolve());
    } else if (ready instanceof RegExp) {
      onLine = (line) => {
        if (ready.test(line)) {
          onLine = undefined;
          resolve();
        }
      };
    } else {
      const poll = async () => {
        while (!settled) {
          try {
            if (await ready()) return resolve();
          } catch (err) {
            lastProbeError = err instanceof Error ? err.message : String(err);
          }
          await new Promise((r) => setTimeout(r, spec.probeIntervalMs ?? 250));
        }
      };
      child.once('spawn', () => void poll());
    }
  });

  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const outcome = await Promise.race([
    becameReady.then(() => ({ kind: 'ready' as const })),
    spawnError.then((error) => ({ kind: 'spawn-error' as const, error })),
    exited.then((how) => ({ kind: 'exited' as const, how })),
    new Promise<{ kind: 'timeout' }>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
    }),
    new Promise<{ kind: 'aborted' }>((resolve) => {
      onAbort = () => resolve({ kind: 'aborted' });
      if (spec.signal?.aborted) onAbort();
      else spec.signal?.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  settled = true;
  clearTimeout(timer);
  spec.signal?.removeEventListener('abort', onAbort);

  switch (outcome.kind) {
    case 'ready':
      return running;
    case 'spawn-error': {
      const code = (outcome.error as NodeJS.ErrnoException).code;
      const install = spec.installHint ? ` — ${spec.installHint}` : '';
      const why =
        code === 'ENOENT' ? `'${spec.command}' was not found on PATH${install}` : outcome.error.message;
      throw new ProcessStartError(`${spec.name} could not be started: ${why}${hint}`, spec.name, []);
    }
    case 'exited': {
      const { code, signal } = outcome.how;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      throw new ProcessStartError(`${spec.name} ${how} before it was ready${hint}`, spec.name, lastLines());
    }
    case 'aborted': {
      await stop();
      const { code, signal } = await exited;
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      throw new ProcessStartError(`${spec.name} stopped before it was ready (${how})`, spec.name, []);
    }
    case 'timeout': {
      await stop();
      const probe = lastProbeError ? ` (last readiness check: ${lastProbeError})` : '';
      throw new ProcessStartError(
        `${spec.name} was not ready within ${Math.round(timeoutMs / 1000)} s${probe}${hint}`,
        spec.name,
        lastLines(),
      );
    }
  }
}
