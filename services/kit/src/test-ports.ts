/**
 * Free ports for test processes. The same drawing as @decor/stack's `freePort` (which starts the
 * servers and cannot be a dependency of the kit): both take the ports handed out in this process from
 * one registry on globalThis, so a test file using both never gets one port twice.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

function tryListen(port: number): Promise<number | undefined> {
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

/** The ports this process has handed out (shared with @decor/stack's freePort under the same key). */
const registry = globalThis as Record<symbol, Set<number> | undefined>;
const HANDED_OUT = Symbol.for('decor.freePort.handedOut');
registry[HANDED_OUT] ??= new Set<number>();
const handedOut: Set<number> = registry[HANDED_OUT];

/**
 * A port free right now, for something that binds it a little later (a service seconds into its
 * start). Drawn below the ephemeral range (a port from it can meanwhile become the local end of any
 * outgoing connection on the machine), never the same port twice in one process; where there is no
 * room below the range, the OS picks (port 0).
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  const bottom = Math.max(10_000, low - 12_000);
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
