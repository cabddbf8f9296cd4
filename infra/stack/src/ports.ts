import { Socket } from 'node:net';
import { tryListen } from '@decor/contracts/test-ports';

/** A port on 127.0.0.1 that someone else already holds (names the env var that moves ours). */
export class PortTakenError extends Error {
  constructor(
    readonly port: number,
    readonly what: string,
    readonly envVar?: string,
  ) {
    const fix = envVar ? ` — set ${envVar} to use another port` : '';
    super(
      `port ${port} on 127.0.0.1 (${what}) is already in use (another \`npm start\` still running?)${fix}`,
    );
    this.name = 'PortTakenError';
  }
}

/** Throws PortTakenError unless the port can be bound on 127.0.0.1 right now. */
export async function assertPortFree(port: number, what: string, envVar?: string): Promise<void> {
  if ((await tryListen(port)) === undefined) throw new PortTakenError(port, what, envVar);
}

export { belowRestartRanges, freePort, restartPortRange } from '@decor/contracts/test-ports';

/** True if something accepts TCP connections on 127.0.0.1:port. */
export function canConnect(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

/** Reads a port from env (validated) or returns the default. */
export function portFromEnv(envVar: string, fallback: number): number {
  const raw = process.env[envVar];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${envVar}=${raw} is not a valid port (1-65535)`);
  }
  return port;
}
