import { Socket } from 'node:net';
import { freePort } from './ports';
import { type RunningProcess, startProcess } from './process';

/** True if a Redis server answers PING at host:port. */
export function redisAnswers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // +PONG, or -NOAUTH… from a password-protected server (which we cannot use either).
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.connect(port, host, () => socket.write('PING\r\n'));
  });
}

export interface RedisHandle {
  url: string;
  /** Set only when we started our own redis-server. */
  process?: RunningProcess;
}

/**
 * Uses the machine's Redis (REDIS_URL, default redis://127.0.0.1:6379) when it answers; otherwise
 * starts `redis-server` on a free port without persistence; otherwise explains how to get one.
 */
export async function useOrStartRedis(
  log: (line: string) => void,
  quiet?: boolean,
  machineUrl = 'redis://127.0.0.1:6379',
): Promise<RedisHandle> {
  const configured = process.env.REDIS_URL ?? machineUrl;
  const { hostname, port } = new URL(configured);
  // A busy machine (a test run beside it) can keep a healthy server from answering within a second.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await redisAnswers(hostname, Number(port || 6379), 2000)) return { url: configured };
  }
  if (process.env.REDIS_URL) throw new Error(`REDIS_URL=${configured} does not answer PING`);

  const ownPort = await freePort();
  try {
    const server = await startProcess({
      name: 'redis',
      command: 'redis-server',
      args: ['--port', String(ownPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      log,
      quiet,
      ready: () => redisAnswers('127.0.0.1', ownPort),
      probeIntervalMs: 100,
      readyTimeoutMs: 15_000,
    });
    return { url: `redis://127.0.0.1:${ownPort}`, process: server };
  } catch (err) {
    if ((err as Error).message.includes('was not found on PATH')) {
      throw new Error(
        `no Redis answers at ${configured} and redis-server is not installed: apt-get install redis-server ` +
          '(or set REDIS_URL to a reachable server)',
      );
    }
    throw err;
  }
}
