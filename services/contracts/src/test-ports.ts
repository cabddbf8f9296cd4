/**
 * Free ports for test processes and local servers, one drawing for @decor/stack (which starts the
 * servers) and @decor/kit/testing (which cannot depend on the stack): beside the test endpoints, the
 * one package both may import. Nothing here runs in a service.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The port bound on 127.0.0.1 and released at once (port 0: the OS's pick); undefined when taken. */
export function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') resolve(undefined);
      else reject(err);
    });
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** Where the ports the OS hands out for port 0 and outgoing connections' local ends begin (Linux: /proc). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32768; // Linux's default
  }
}

/**
 * Where freePort draws: the 12,000 ports below the ephemeral range, from 10,000 up. A test whose
 * processes bind the same ports again after a restart (`npm start` three times on one data folder)
 * draws below `bottom`, where no other test process draws: nothing can take them between two starts.
 */
export function sharedPortRange(): { bottom: number; top: number } {
  const top = ephemeralLow();
  return { bottom: Math.max(10_000, top - 12_000), top };
}

/**
 * Below the shared range, one range for each test whose processes bind the same ports again after a
 * stop (a second `npm start` on one data folder, the chaos suite's killed and restarted processes):
 * no other test process draws there, so nothing can take such a port between the stop and the start,
 * and two of these tests running at once keep off each other's ports too.
 */
const RESTART_RANGE_SIZES = { 'start-copy': 1_000, chaos: 2_000 } as const;
export type RestartRangeOwner = keyof typeof RESTART_RANGE_SIZES;

export function restartPortRange(owner: RestartRangeOwner): { bottom: number; top: number } {
  let top = sharedPortRange().bottom;
  for (const [name, size] of Object.entries(RESTART_RANGE_SIZES)) {
    if (name === owner) return { bottom: top - size, top };
    top -= size;
  }
  throw new Error(`no restart port range for ${owner}`);
}

/** The lowest port of every restart range: ports a test places itself (by an offset) stay below it. */
export function belowRestartRanges(): number {
  return sharedPortRange().bottom - Object.values(RESTART_RANGE_SIZES).reduce((a, b) => a + b, 0);
}

/**
 * Ports this process has handed out: a stack draws twenty at once and binds them seconds later, so
 * the same draw twice (a birthday chance of ~1.6 % per stack) would give two servers one port.
 */
const registry = globalThis as Record<symbol, Set<number> | undefined>;
const HANDED_OUT = Symbol.for('decor.freePort.handedOut');
registry[HANDED_OUT] ??= new Set<number>();
const handedOut: Set<number> = registry[HANDED_OUT];

/**
 * A port free right now, for something that binds it a little later (a service seconds into its
 * start). Drawn below the ephemeral range: a port from that range can meanwhile become the local end
 * of any outgoing connection on the machine (a test run opens thousands), which made a browser file's
 * gateway fail with EADDRINUSE. Never the same port twice in one process; two processes drawing the
 * same port at once is left to chance (1 in ~10,000). Where there is no room below the range, the OS
 * picks (port 0). `range` draws elsewhere, [bottom, top).
 */
export async function freePort(range = sharedPortRange()): Promise<number> {
  const { bottom, top: low } = range;
  for (let attempt = 0; low - bottom >= 1_000 && attempt < 50; attempt++) {
    const drawn = bottom + Math.floor(Math.random() * (low - bottom));
    if (handedOut.has(drawn)) continue;
    handedOut.add(drawn); // before the check: callers drawing at once must not both get it
    const port = await tryListen(drawn);
    if (port !== undefined) return port;
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
