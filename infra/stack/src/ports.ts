import { createServer, Socket } from 'node:net';

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

/** Throws PortTakenError unless the port can be bound on 127.0.0.1 right now. */
export async function assertPortFree(port: number, what: string, envVar?: string): Promise<void> {
  if ((await tryListen(port)) === undefined) throw new PortTakenError(port, what, envVar);
}

/** A port the OS reports free right now (tiny race until the child binds it; fine on loopback). */
export async function freePort(): Promise<number> {
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

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
