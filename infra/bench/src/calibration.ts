/**
 * The machine's own speed, measured in the same run as the figures and recorded in every row's
 * machine cell, so that the regression guard (regressions.ts) compares a row with rows of the same
 * machine, or, for a row of another machine, with its figures scaled by the two calibrations:
 *   - machine: a fingerprint of the CPU (/proc/cpuinfo's model, stepping, cache, MHz, flags), the
 *     cores, the memory and /etc/machine-id ("2 cores, 24 GB" alone named two machines of which one
 *     serves the same route at half the rate of the other);
 *   - loop: the median of 5 runs of a fixed CPU-bound loop in this process (one core's speed);
 *   - bare Fastify: one `GET /healthz` route of Fastify in a process of its own, 20 connections for
 *     3 s after 1 s unmeasured (the request path under every service's figures).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { startBareFastify } from './gateway-overhead';

export interface Calibration {
  /** 8 hex digits of the fingerprint. */
  machine: string;
  loopMs: number;
  fastifyPerSecond: number;
}

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

export function machineFingerprint(): string {
  const cpu = read('/proc/cpuinfo').split('\n\n')[0] ?? '';
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpu)?.[1]?.trim() ?? '';
  const parts = [
    ...['vendor_id', 'cpu family', 'model', 'model name', 'stepping', 'cache size', 'flags'].map(field),
    // The nominal clock: a host at another frequency is another machine.
    String(Math.round(Number(field('cpu MHz')) / 100)),
    os.cpus()[0]?.model ?? '',
    String(os.availableParallelism()),
    String(Math.round(os.totalmem() / 2 ** 30)),
    os.arch(),
    read('/etc/machine-id').trim(),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 8);
}

/** A fixed amount of integer work (xorshift over 20 million steps): ~50-150 ms on today's cores. */
export function cpuLoopMs(): number {
  const t = performance.now();
  let x = 2463534242;
  let sum = 0;
  for (let i = 0; i < 20_000_000; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    sum = (sum + (x & 0xff)) | 0;
  }
  const ms = performance.now() - t;
  if (sum === 42) process.stdout.write(''); // keeps the loop from being optimised away
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function measureCalibration(log: (line: string) => void): Promise<Calibration> {
  const loops = Array.from({ length: 5 }, cpuLoopMs);
  const bare = await startBareFastify(log);
  try {
    await autocannon({ url: bare.url, connections: 20, duration: 1 });
    const run = await autocannon({ url: bare.url, connections: 20, duration: 3 });
    const c = {
      machine: machineFingerprint(),
      loopMs: median(loops),
      fastifyPerSecond: run.requests.total / run.duration,
    };
    log(`calibration: ${calibrationText(c)}`);
    return c;
  } finally {
    await bare.child.stop();
  }
}

/** "machine 3f9a1c0d, loop 84 ms, bare Fastify 12,345/s": how rows carry it (in their machine cell). */
export function calibrationText(c: Calibration): string {
  return `machine ${c.machine}, loop ${Math.round(c.loopMs)} ms, bare Fastify ${Math.round(c.fastifyPerSecond).toLocaleString('en-US')}/s`;
}

/** The calibration written in any cell of a row (none in rows recorded before it existed). */
export function calibrationIn(cells: readonly string[]): Calibration | undefined {
  for (const cell of cells) {
    const m = /machine ([0-9a-f]{8}), loop (\d+) ms, bare Fastify ([\d,]+)\/s/.exec(cell);
    if (m)
      return {
        machine: m[1] as string,
        loopMs: Number(m[2]),
        fastifyPerSecond: Number((m[3] as string).replaceAll(',', '')),
      };
  }
  return undefined;
}

/**
 * How many times slower the machine of `now` is than that of `before`: the geometric mean of the
 * loop's time ratio and the bare-Fastify rate ratio (2 = half the speed).
 */
export function slowness(now: Calibration, before: Calibration): number {
  return Math.sqrt((now.loopMs / before.loopMs) * (before.fastifyPerSecond / now.fastifyPerSecond));
}
